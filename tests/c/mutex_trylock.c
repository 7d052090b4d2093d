/* porlab-test
   verdict: safe
   naive: complete=4 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=4 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* pthread_mutex_trylock: t1 writes x only if it gets the mutex at once. main: spawn; lock;
   x = 1; unlock   t1: if (trylock(m) == 0) { x = 2; unlock }.
   The trylock is one event: a lock when the mutex is free, a failed read of it when it is held.
   After the spawn: trylock before main's lock (it succeeds, main's lock waits for t1's unlock:
   1 interleaving), between main's lock and unlock (2 places, it fails), or after main's unlock
   (it succeeds: 1): 4 interleavings. The failing trylock does not conflict with x = 1, so its 2
   places are 1 class: 3 classes, told apart by what the trylock and main's lock read (3 rf, 3
   RVF classes: the two successful trylocks read 0 but in opposite causal order with main's lock). */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *t1(void *arg) {
    (void)arg;
    if (pthread_mutex_trylock(&m) == 0) {
        x = 2;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_mutex_lock(&m);
    x = 1;
    pthread_mutex_unlock(&m);
    return 0;
}
