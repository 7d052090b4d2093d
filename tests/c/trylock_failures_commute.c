/* porlab-test
   verdict: safe
   naive: complete=5 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: interleavings=5 mazurkiewicz=1 reads-from=1 rvf=1
*/
/* A failed pthread_mutex_trylock is a read of the mutex (README, "Explorers and equivalences"):
   main holds m while two threads try it, so both fail, and two failed trylocks commute. Events:
   main lock, spawn1, spawn2, join1, join2, unlock; t_i one failed trylock, after spawn_i and
   before join_i: t1's in 2 gaps, t2's in 2 (both orders in the shared one): 5 interleavings, one
   class. (Nidhugg's reads-from mode orders failed trylocks among themselves: 2 classes.) */
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *t(void *arg) {
    (void)arg;
    assert(pthread_mutex_trylock(&m) == EBUSY);
    return 0;
}

int main(void) {
    pthread_mutex_lock(&m);
    pthread_t a, b;
    pthread_create(&a, 0, t, 0);
    pthread_create(&b, 0, t, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_mutex_unlock(&m);
    return 0;
}
