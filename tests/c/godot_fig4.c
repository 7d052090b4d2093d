/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=4 blocked=0 errors=0
   optimal: complete=2 blocked=0
   optimal-await: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=1
   twin: examples/godot_fig4.py
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 33 and
   by t1:q's await at line 25, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Godot Figure 4: p: x = 1; x = 0   q: await(x == 0); y = 1. The await reads the initial 0 or
   p's x = 0: 2 classes (1 RVF class: both read 0). main is p. */
#include <pthread.h>

int __VERIFIER_load_await_i32(volatile int *addr, int cond, int operand);

int x, y;

void *q(void *arg) {
    (void)arg;
    __VERIFIER_load_await_i32(&x, 2, 0);
    y = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, q, 0);
    x = 1;
    x = 0;
    return 0;
}
