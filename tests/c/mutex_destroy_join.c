/* porlab-test
   verdict: safe
   naive: complete=1 blocked=0 errors=0
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
*/
/* The fixed twin of mutex_destroy_race.c: main joins t1 before it destroys m, so the destroy
   comes after t1's lock and unlock in every execution (1 interleaving) and reads the 0 of the
   unlock. */
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
    pthread_create(&t, 0, t1, 0);
    pthread_join(t, 0);
    pthread_mutex_destroy(&m);
    return 0;
}
