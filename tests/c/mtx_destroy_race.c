/* porlab-test
   verdict: violation mutex-destroyed destroy-locked-mutex
   naive: complete=1 blocked=0 errors=2
   partition: interleavings=3 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* mutex_destroy_race.c with C11's <threads.h>: main's mtx_destroy races with t1's mtx_lock and
   mtx_unlock (mtx_init is no event: m is not destroyed then). By hand, as there: destroy before
   the lock: t1's lock faults (use of a destroyed mutex); between lock and unlock: main's
   destroy faults (destroy of a locked mutex); after the unlock: complete. 3 interleavings, 3
   classes. */
#include <threads.h>

mtx_t m;

int t1(void *arg) {
    (void)arg;
    mtx_lock(&m); // porlab: error
    mtx_unlock(&m);
    return 0;
}

int main(void) {
    thrd_t t;
    mtx_init(&m, mtx_plain);
    thrd_create(&t, t1, 0);
    mtx_destroy(&m); // porlab: error
    return 0;
}
