/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
   twin: examples/litmus_mp.py
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 30 and
   by t1:t1's read at line 23, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* MP (message passing): t0: x = 1; y = 1   t1: a = y; b = x. C(4,2) = 6 interleavings after
   main's spawn; (a, b) = (1, 0) is the one forbidden combination of the 2x2 conflict orders. */
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    int a = y;
    int b = x;
    return (void *)(long)(2 * a + b);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    y = 1;
    return 0;
}
