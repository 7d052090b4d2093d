/* porlab-test
   verdict: violation destroy-locked-mutex
   naive: complete=0 blocked=0 errors=1
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
*/
/* Destroying a mutex the destroyer itself holds (one thread, one execution): the destroy reads
   1 and faults. The fixed twin, mutex_destroy_unlocked.c, unlocks first. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void) {
    pthread_mutex_lock(&m);
    pthread_mutex_destroy(&m); // porlab: error
    pthread_mutex_unlock(&m);
    return 0;
}
