/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: interleavings=2 mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=await_widths
*/
/* Data race (C11; porlab reports it by default): small is accessed by main's write at line 40
   and by t1:waiter's await at line 30, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Nidhugg's await intrinsics at every width: i16 and i64 load-awaits and an i64 exchange-await
   (wait until the ticket is 0, take it by writing 1). main raises a 16-bit and a 64-bit flag. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

int16_t __VERIFIER_load_await_i16(volatile void *addr, int cond, int16_t operand);
int64_t __VERIFIER_load_await_i64(volatile void *addr, int cond, int64_t operand);
int64_t __VERIFIER_xchg_await_i64(volatile void *addr, int64_t value, int cond, int64_t operand);

int16_t small;
int64_t big;
int64_t ticket;

void *waiter(void *arg) {
    (void)arg;
    int16_t s = __VERIFIER_load_await_i16(&small, 9 /* SGT */, 0);
    int64_t b = __VERIFIER_load_await_i64(&big, 3 /* UGE */, 1LL << 40);
    int64_t old = __VERIFIER_xchg_await_i64(&ticket, 1, 2 /* EQ */, 0);
    assert(s == 7 && b == (1LL << 41) && old == 0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    small = 7;
    big = 1LL << 41;
    return 0;
}
