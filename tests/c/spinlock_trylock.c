/* porlab-test
   verdict: safe
   naive: complete=4 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=4 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* pthread_spin_trylock, as mutex_trylock.c (the same events and counts): t1 writes x only if it
   gets the spin lock at once, and otherwise gets EBUSY. main: spawn; lock; x = 1; unlock.
   After the spawn: the trylock before main's lock (it succeeds; main's lock waits for t1's
   unlock: 1 interleaving), between main's lock and unlock (2 places, it fails), or after main's
   unlock (it succeeds: 1): 4 interleavings; the failing trylock does not conflict with x = 1,
   so its 2 places are one class: 3 classes. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_spinlock_t s;
int x;

void *t1(void *arg) {
    (void)arg;
    int r = pthread_spin_trylock(&s);
    if (r == 0) {
        x = 2;
        pthread_spin_unlock(&s);
    } else {
        assert(r == EBUSY);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_spin_lock(&s);
    x = 1;
    pthread_spin_unlock(&s);
    pthread_join(t, 0);
    return 0;
}
