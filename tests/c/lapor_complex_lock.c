/* porlab-test
   verdict: safe
   naive: complete=514 blocked=0 errors=0
   optimal: complete=10 blocked=0
   partition: mazurkiewicz=10 reads-from=10
   twin: examples/lapor_complex_lock.py n=2
*/
/* LAPOR complex-lock(2) (GenMC's lock2inc): each thread: lock m; ++x; unlock m; lock l;
   unlock l; lock m; ++x; unlock m. 10 classes (see the twin). main is thread 0; nothing
   is asserted, so that the events are exactly the twin's. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x;

static void body(void) {
    pthread_mutex_lock(&m);
    x = x + 1;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&l);
    pthread_mutex_unlock(&l);
    pthread_mutex_lock(&m);
    x = x + 1;
    pthread_mutex_unlock(&m);
}

void *t1(void *arg) {
    (void)arg;
    body();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    body();
    return 0;
}
