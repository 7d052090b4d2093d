/* porlab-test
   args: --unroll 3
   verdict: safe
   naive: complete=2155 blocked=462 errors=0
   optimal: complete=24 blocked=8
   optimal-await+ifaa: complete=12 blocked=4
   partition: interleavings=2617 mazurkiewicz=32 mazurkiewicz-ifaa=16 reads-from=32 rvf=32
   twin: tests/c/twins.py name=sync_builtins
*/
/* GCC __sync builtins (all SC): a counter with __sync_fetch_and_add, a one-shot claim with
   __sync_val_compare_and_swap (exactly one of two threads wins), and a lock with
   __sync_lock_test_and_set / __sync_lock_release around a plain increment (spinning
   bounded by --unroll 3). */
#include <assert.h>
#include <pthread.h>

int hits, owner, lk, count;

void *worker(void *arg) {
    int id = (int)(long)arg;
    __sync_fetch_and_add(&hits, 1);
    int prev = __sync_val_compare_and_swap(&owner, 0, id);
    while (__sync_lock_test_and_set(&lk, 1)) {
    }
    count = count + 1;
    __sync_lock_release(&lk);
    return (void *)(long)(prev == 0);
}

int main(void) {
    pthread_t a, b;
    void *ra, *rb;
    pthread_create(&a, 0, worker, (void *)1L);
    pthread_create(&b, 0, worker, (void *)2L);
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    assert((long)ra + (long)rb == 1);
    assert(hits == 2 && count == 2);
    return 0;
}
