/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=1 blocked=0 errors=0
   optimal: complete=1 blocked=0
   optimal-await: complete=1 blocked=0
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
   twin: examples/godot_fig2.py variant=await
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's await at line 34 and
   by t1:q's write at line 27, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Godot Figure 2(c): p: await(x == 1); b = y   q: y = 42; x = 1. The await is enabled only after
   x = 1, which is q's last event, so exactly 1 interleaving. Uses Nidhugg's intrinsic with
   condition code EQ = 2. */
#include <pthread.h>

int __VERIFIER_load_await_i32(volatile int *addr, int cond, int operand);

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
    __VERIFIER_load_await_i32(&x, 2, 1);
    int b = y;
    return b;
}
