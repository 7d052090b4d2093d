/* porlab-test
   verdict: safe
   naive: complete=26 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
*/
/* A function named __VERIFIER_atomic_* runs atomically: two workers increment a counter through
   __VERIFIER_atomic_incr(); main joins both and asserts 2. The two increments are ordered one way
   or the other: 2 classes. The naive count is that of mutex_counter.c (26): porlab runs the
   atomic function under a global lock (lock; read; write; unlock), exactly the events of a
   mutex-protected increment. */
#include <assert.h>
#include <pthread.h>

int count;

void __VERIFIER_atomic_incr(void) { count = count + 1; }

void *worker(void *arg) {
    (void)arg;
    __VERIFIER_atomic_incr();
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
