/* porlab-test
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* A mutex destroyed and initialised again is usable: main inits, destroys and re-inits m (the
   re-init is a write of 0 to m, as it follows a destroy), then main and t1 each lock and unlock
   m. By hand: the critical sections of main and t1 go in either order (2 interleavings, 2
   classes: the locks conflict); main's last destroy comes after the join. The twin with the
   bug is mutex_destroy_no_reinit.c. */
#include <pthread.h>

pthread_mutex_t m;

void *t1(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_mutex_init(&m, 0);
    pthread_mutex_destroy(&m);
    pthread_mutex_init(&m, 0);
    pthread_create(&t, 0, t1, 0);
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    pthread_mutex_destroy(&m);
    return 0;
}
