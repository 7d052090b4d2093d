/* porlab-test
   args: --unroll 3
   verdict: safe
   naive: complete=566 blocked=126 errors=0
   optimal: complete=6 blocked=2
   partition: interleavings=692 mazurkiewicz=8 reads-from=8 rvf=8
   twin: tests/c/twins.py name=ticket_lock
*/
/* A ticket lock: my = fetch_add(&next, 1); spin until serving == my; critical section;
   serving = my + 1. Two workers increment a counter; main joins and asserts 2. Spinning bounded by
   --unroll 3. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int next, serving;
int count;

void *worker(void *arg) {
    (void)arg;
    int my = atomic_fetch_add(&next, 1);
    while (atomic_load(&serving) != my) {
    }
    count = count + 1;
    atomic_store(&serving, my + 1);
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
