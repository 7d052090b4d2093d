/* porlab-test
   verdict: violation mutex-destroyed
   naive: complete=0 blocked=0 errors=2
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* mutex_destroy_reinit.c without the re-init: m is destroyed before the spawn, so whichever of
   main and t1 locks it first faults there (use of a destroyed mutex; the lock happens, then the
   thread faults), and the other then locks it and faults too (the mutex stays destroyed). 2
   interleavings (who locks first), 2 classes (the locks conflict), both errors. */
#include <pthread.h>

pthread_mutex_t m;

void *t1(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m); // porlab: error
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_mutex_init(&m, 0);
    pthread_mutex_destroy(&m);
    pthread_create(&t, 0, t1, 0);
    pthread_mutex_lock(&m); // porlab: error
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    pthread_mutex_destroy(&m);
    return 0;
}
