/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=204 blocked=10 errors=0
   optimal: complete=6 blocked=3
   partition: interleavings=214 mazurkiewicz=9 reads-from=9 rvf=9
   twin: tests/c/twins.py name=await_conds
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 48 and
   by t1:waiter_a's await at line 28, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Nidhugg's await condition codes on a counter that a writer raises to 3 in steps of one
   (x is int8: __VERIFIER_load_await_i8 too). Waiters: UGT 1 (x > 1 unsigned), SGE 2, NE 0,
   EQ 3, ULE 1 (must come early), SLT 2. Each waiter asserts what it saw. */
#include <assert.h>
#include <pthread.h>

int __VERIFIER_load_await_i32(volatile int *addr, int cond, int operand);
signed char __VERIFIER_load_await_i8(volatile signed char *addr, int cond, signed char operand);

int x;
signed char y = -1;

void *waiter_a(void *arg) {
    (void)arg;
    int v = __VERIFIER_load_await_i32(&x, 1 /* UGT */, 1);
    assert(v > 1);
    int w = __VERIFIER_load_await_i32(&x, 6 /* ULE */, 3);
    assert(w <= 3);
    return 0;
}

void *waiter_b(void *arg) {
    (void)arg;
    signed char v = __VERIFIER_load_await_i8(&y, 12 /* SLT */, 0);
    assert(v < 0);
    int w = __VERIFIER_load_await_i32(&x, 11 /* SGE */, 2);
    assert(w >= 2);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, waiter_a, 0);
    pthread_create(&b, 0, waiter_b, 0);
    x = 1;
    x = 2;
    y = 1;
    x = 3;
    int z = __VERIFIER_load_await_i32(&x, 5 /* NE */, 0);
    assert(z == 3);
    return 0;
}
