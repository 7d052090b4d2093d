/* porlab-test
   args: --unroll 3
   verdict: safe
   naive: complete=160 blocked=35 errors=0
   optimal: complete=6 blocked=2
   partition: interleavings=195 mazurkiewicz=8 reads-from=8 rvf=8
   twin: tests/c/twins.py name=spinlock_tas
*/
/* A test-and-set spinlock (atomic_exchange) protecting a counter; two workers, main joins and
   asserts 2. Spinning is bounded by --unroll 3 (3 attempts): executions where a thread would try
   a 4th time are blocked. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int lock;
int count;

void *worker(void *arg) {
    (void)arg;
    while (atomic_exchange(&lock, 1) != 0) {
    }
    count = count + 1;
    atomic_store(&lock, 0);
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
