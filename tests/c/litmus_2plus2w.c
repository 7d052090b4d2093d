/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=1 rvf=1
   twin: examples/litmus_2plus2w.py
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 30 and
   by t1:t1's write at line 23, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* 2+2W: t0: x = 1; y = 2   t1: y = 1; x = 2. 6 interleavings; the write orders on x and y give
   4 combinations, x = 1 /\ y = 1 at the end is cyclic: 3 classes. Nothing reads: 1 rf class. */
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    y = 1;
    x = 2;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    y = 2;
    return 0;
}
