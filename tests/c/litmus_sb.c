/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   source: complete=3 blocked=0 errors=0
   optimal: complete=3 blocked=0 errors=0
   optimal-await: complete=3 blocked=0 errors=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
   twin: examples/litmus_sb.py
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 34 and
   by t1:t1's read at line 27, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* SB (store buffering). main plays t0 after spawning t1: its spawn is always the first event, so
   the interleavings are those of {Wx, Ry} with {Wy, Rx}: C(4,2) = 6. The classes are fixed by
   the order of the two conflicting pairs (Wx,Rx) and (Wy,Ry); Ry < Wy and Rx < Wx together is a
   cycle with program order, so 3 classes, each with distinct read values (rf = rvf = 3). */
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    y = 1;
    int b = x;
    return (void *)(long)b;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    int a = y;
    return a;
}
