/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=26 blocked=0 errors=0
   optimal: complete=2 blocked=0
   optimal-await: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=await_lock
*/
/* Data race (C11; porlab reports it by default): lock is accessed by t1:worker's exchange-await
   at line 28 and by t2:worker's write at line 30, neither happening before the other, at least
   one of them not atomic. The test is about the interleavings of these accesses as written, so
   its header turns the check off (--disable-race-detection); tests/python/test_bugchecks.py
   tests the race check. */
/* A spinlock written with Nidhugg's exchange-await: __VERIFIER_xchg_await_i32(&lock, 1, EQ, 0)
   blocks until lock == 0 and then sets it to 1 in one event, so no spinning is explored: the two
   critical sections go in 2 orders, 0 blocked traces. */
#include <assert.h>
#include <pthread.h>

int __VERIFIER_xchg_await_i32(volatile int *addr, int new_value, int cond, int operand);

int lock;
int count;

void *worker(void *arg) {
    (void)arg;
    __VERIFIER_xchg_await_i32(&lock, 1, 2 /* EQ */, 0);
    count = count + 1;
    lock = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 2);
    return 0;
}
