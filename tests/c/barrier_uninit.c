/* porlab-test
   verdict: violation barrier-not-initialized
   naive: complete=0 blocked=0 errors=1
*/
/* pthread_barrier_wait on a barrier nobody initialised: the barrier word is 0 (no count), which
   porlab reports as a fault (glibc's behaviour is undefined). One execution: the wait's
   fetch-add reads 0. */
#include <pthread.h>

pthread_barrier_t b;

int main(void) {
    pthread_barrier_wait(&b); // porlab: error
    return 0;
}
