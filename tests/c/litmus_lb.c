/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
   twin: examples/litmus_lb.py
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's read at line 30 and by
   t1:t1's write at line 23, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* LB (load buffering): t0: a = x; y = 1   t1: b = y; x = 1. 6 interleavings; a = b = 1 would
   need each read after the other thread's write, which follows its own read: 3 classes. */
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    int b = y;
    x = 1;
    return (void *)(long)b;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    int a = x;
    y = 1;
    return a;
}
