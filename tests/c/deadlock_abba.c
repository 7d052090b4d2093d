/* porlab-test
   verdict: violation deadlock
   naive: complete=4 blocked=0 errors=2
   optimal: complete=2 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
   twin-blocked: tests/c/twins.py name=deadlock_abba
*/
/* The classic lock-order inversion: t1 takes a then b, main takes b then a. When each holds its
   first lock, every thread waits: a deadlock, reported as an error. The builder twin has the same
   events; the builder counts a deadlock as a blocked trace, so the C program's errors must equal
   the twin's blocked traces (twin-blocked). */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

void *t1(void *arg) {
    (void)arg;
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return 0;
}
