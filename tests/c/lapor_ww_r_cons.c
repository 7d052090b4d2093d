/* porlab-test
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin: examples/lapor_ww_r_cons.py
*/
/* LAPOR WW+R-CONS: T1: lock; x = 1; x = 2; unlock   T2: lock; a = x; unlock. a is 0 or 2, never
   the intermediate 1 (asserted). main is T1. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x;

void *T2(void *arg) {
    (void)arg;
    pthread_mutex_lock(&l);
    int a = x;
    pthread_mutex_unlock(&l);
    assert(a != 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, T2, 0);
    pthread_mutex_lock(&l);
    x = 1;
    x = 2;
    pthread_mutex_unlock(&l);
    return 0;
}
