/* porlab-test
   args: --unroll 2
   verdict: safe
   naive: complete=25 blocked=0 errors=0
   optimal: complete=4 blocked=0
   partition: interleavings=25 mazurkiewicz=4 reads-from=4 rvf=4
   twin: tests/c/twins.py name=cas_counter
*/
/* Two threads increment a counter with a CAS loop (C11 atomic_compare_exchange_strong); main
   joins both and asserts 2. --unroll 2 allows one retry: a thread whose CAS fails twice would
   need a third attempt and the execution is blocked (it cannot happen with two threads: each CAS
   fails at most once, because the other thread's increment is the only interference). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int count;

void *worker(void *arg) {
    (void)arg;
    int old;
    do {
        old = atomic_load(&count);
    } while (!atomic_compare_exchange_strong(&count, &old, old + 1));
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(atomic_load(&count) == 2);
    return 0;
}
