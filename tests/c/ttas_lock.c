/* porlab-test
   args: --unroll 2
   verdict: safe
   naive: complete=319 blocked=88 errors=0
   optimal: complete=10 blocked=4
   partition: interleavings=407 mazurkiewicz=14 reads-from=14 rvf=14
   twin: tests/c/twins.py name=ttas_lock
*/
/* A test-and-test-and-set lock: spin reading the lock until it looks free, then try to take it
   with an exchange; retry from the start if someone was faster. Both loops are bounded by
   --unroll 2 (at most 2 passes through each loop per entry). Two workers, main asserts 2. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int lock;
int count;

static void acquire(void) {
    for (;;) {
        while (atomic_load(&lock) != 0) {
        }
        if (atomic_exchange(&lock, 1) == 0)
            return;
    }
}

void *worker(void *arg) {
    (void)arg;
    acquire();
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
