/* porlab-test
   verdict: violation mutex-destroyed destroy-locked-mutex
   naive: complete=1 blocked=0 errors=2
   partition: interleavings=3 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* mutex_destroy_race.c with a spin lock: main's pthread_spin_destroy races with t1's
   pthread_spin_trylock (it finds the lock free in every order: only t1 takes it) and unlock.
   By hand: destroy before the trylock: it faults (use of a destroyed mutex); between trylock
   and unlock: main's destroy faults (destroy of a locked mutex); after the unlock: complete. 3
   interleavings, 3 classes. */
#include <pthread.h>

pthread_spinlock_t s;

void *t1(void *arg) {
    (void)arg;
    if (pthread_spin_trylock(&s) == 0) // porlab: error
        pthread_spin_unlock(&s);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_spin_init(&s, 0);
    pthread_create(&t, 0, t1, 0);
    pthread_spin_destroy(&s); // porlab: error
    return 0;
}
