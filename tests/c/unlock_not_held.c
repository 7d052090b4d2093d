/* porlab-test
   verdict: violation unlock-not-held
   naive: complete=0 blocked=0 errors=1
   optimal: complete=0 blocked=0
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=unlock_not_held
*/
/* A thread unlocks a mutex it never locked: a fault in every execution, whether main holds the
   mutex at that moment or not. main: spawn; lock; x = 1; unlock   t1: unlock (fault). */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *t1(void *arg) {
    (void)arg;
    pthread_mutex_unlock(&m); // porlab: error
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
