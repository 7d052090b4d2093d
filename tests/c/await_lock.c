/* porlab-test
   verdict: safe
   naive: complete=26 blocked=0 errors=0
   optimal: complete=2 blocked=0
   optimal-await: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=await_lock
*/
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
