/* porlab-test
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin: examples/lapor_w_w_lock.py
*/
/* LAPOR w+w+LOCK: T1: lock; x = 1; unlock   T2: lock; x = 2; unlock. 2 classes (locks are
   read-modify-writes of the mutex). main is T1. */
#include <pthread.h>

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x;

void *T2(void *arg) {
    (void)arg;
    pthread_mutex_lock(&l);
    x = 2;
    pthread_mutex_unlock(&l);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, T2, 0);
    pthread_mutex_lock(&l);
    x = 1;
    pthread_mutex_unlock(&l);
    return 0;
}
