/* porlab-test
   verdict: violation unlock-not-held
   naive: complete=0 blocked=0 errors=1
*/
/* pthread_cond_wait without holding the mutex: the wait would unlock a mutex the thread does
   not hold, a fault (in every execution: the thread has no visible event before it). */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

void *t1(void *arg) {
    (void)arg;
    pthread_cond_wait(&c, &m); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    return 0;
}
