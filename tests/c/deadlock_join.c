/* porlab-test
   verdict: violation deadlock
   naive: complete=0 blocked=0 errors=1
*/
/* main joins a thread that waits for a mutex main holds: in every execution both threads end up
   waiting. main: lock m; spawn; join   t1: lock m. After main's lock and spawn, t1's lock is
   disabled and main's join waits for t1: 1 execution, a deadlock. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *t1(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_mutex_lock(&m);
    pthread_create(&t, 0, t1, 0);
    pthread_join(t, 0);
    pthread_mutex_unlock(&m);
    return 0;
}
