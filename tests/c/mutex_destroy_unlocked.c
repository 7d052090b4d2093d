/* porlab-test
   verdict: safe
   naive: complete=1 blocked=0 errors=0
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
*/
/* The fixed twin of mutex_destroy_locked.c: unlock, then destroy. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void) {
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    pthread_mutex_destroy(&m);
    return 0;
}
