/* porlab-test
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin: examples/lapor_2rw_lock.py
*/
/* LAPOR 2RW-LOCK: T1: lock; a = x; if (a == 0) x = 1; unlock   T2: lock; b = x; x = 2; unlock.
   2 classes, one per order of the critical sections. main is T1. */
#include <pthread.h>

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x;

void *T2(void *arg) {
    (void)arg;
    pthread_mutex_lock(&l);
    int b = x;
    x = 2;
    pthread_mutex_unlock(&l);
    return (void *)(long)b;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, T2, 0);
    pthread_mutex_lock(&l);
    int a = x;
    if (a == 0)
        x = 1;
    pthread_mutex_unlock(&l);
    return 0;
}
