/* porlab-test
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin: examples/lapor_ww_rr_lock.py
*/
/* LAPOR WW+RR-LOCK: T1: lock; x = 42; y = 42; unlock   T2: lock; a = x; b = y; unlock.
   (a, b) is (0, 0) or (42, 42) (asserted): 2 classes. main is T1. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x, y;

void *T2(void *arg) {
    (void)arg;
    pthread_mutex_lock(&l);
    int a = x;
    int b = y;
    pthread_mutex_unlock(&l);
    assert(a == b);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, T2, 0);
    pthread_mutex_lock(&l);
    x = 42;
    y = 42;
    pthread_mutex_unlock(&l);
    return 0;
}
