/* porlab-test
   verdict: safe
   naive: complete=4 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=4 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* mtx_trylock returns thrd_busy (1), not EBUSY: mutex_trylock.c's program (the same events and
   counts, derived there) with C11 names. */
#include <assert.h>
#include <threads.h>

mtx_t m;
int x;

int t1(void *arg) {
    (void)arg;
    int r = mtx_trylock(&m);
    if (r == thrd_success) {
        x = 2;
        mtx_unlock(&m);
    } else {
        assert(r == thrd_busy);
    }
    return 0;
}

int main(void) {
    mtx_init(&m, mtx_plain);
    thrd_t t;
    thrd_create(&t, t1, 0);
    mtx_lock(&m);
    x = 1;
    mtx_unlock(&m);
    thrd_join(t, 0);
    return 0;
}
