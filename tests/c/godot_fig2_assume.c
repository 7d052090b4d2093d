/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=1 blocked=2 errors=0
   optimal: complete=1 blocked=1
   optimal-await: complete=1 blocked=1
   partition: interleavings=3 mazurkiewicz=2 reads-from=2 rvf=2
   twin: examples/godot_fig2.py variant=assume
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's read at line 34 and by
   t1:q's write at line 27, neither happening before the other, at least one of them not atomic.
   The test is about the interleavings of these accesses as written, so its header turns the
   check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race check. */
/* Godot Figure 2(b): p: a = x; assume(a == 1); b = y   q: y = 42; x = 1.
   main is p. When p's read of x comes before x = 1 (before or after y = 42: 2 interleavings)
   p blocks for good and q finishes: 2 blocked traces. Otherwise Wy Wx Rx Ry: 1 complete.
   Classes: 1 complete + 1 blocked (the blocked ones differ only in independent Rx/Wy order). */
#include <pthread.h>

void __VERIFIER_assume(int);

int x, y;

void *q(void *arg) {
    (void)arg;
    y = 42;
    x = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, q, 0);
    int a = x;
    __VERIFIER_assume(a == 1);
    int b = y;
    return b;
}
