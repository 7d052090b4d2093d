/* porlab-test
   verdict: safe
   naive: complete=44 blocked=0 errors=0
   optimal: complete=6 blocked=0
   optimal-await+ifaa: complete=1 blocked=0
   partition: mazurkiewicz=6 mazurkiewicz-ifaa=1 reads-from=6 rvf=6
   twin: tests/c/twins.py name=faa_counter
*/
/* Three threads atomic_fetch_add(&count, 1) with the result unused; main joins all three and
   asserts 3. The three read-modify-writes conflict: 3! = 6 classes; with IFAA (independent
   fetch-and-adds whose results are unused) they commute: 1 class. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int count;

void *worker(void *arg) {
    (void)arg;
    atomic_fetch_add(&count, 1);
    return 0;
}

int main(void) {
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&th[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], 0);
    assert(atomic_load(&count) == 3);
    return 0;
}
