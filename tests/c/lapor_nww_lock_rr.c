/* porlab-test
   args: -DN=3
   verdict: safe
   naive: complete=1256 blocked=0 errors=0
   optimal: complete=6 blocked=0
   partition: interleavings=1256 mazurkiewicz=6 reads-from=6 rvf=6
   twin: examples/lapor_nww_lock_rr.py n=3 locked=True
*/
/* LAPOR nww-lock-rr(N): thread i (1..N): lock(l); x = i; y = i; unlock(l); main spawns all,
   joins all, reads x and y and asserts they are equal. N! classes (one per order of the critical
   sections); the interleaving count comes from the builder twin, which has the same main. */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif
#ifndef LOCKED
#define LOCKED 1
#endif

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x, y;

void *worker(void *arg) {
    int i = (int)(long)arg;
#if LOCKED
    pthread_mutex_lock(&l);
#endif
    x = i;
    y = i;
#if LOCKED
    pthread_mutex_unlock(&l);
#endif
    return 0;
}

int main(void) {
    pthread_t th[N];
    for (int i = 0; i < N; i++)
        pthread_create(&th[i], 0, worker, (void *)(long)(i + 1));
    for (int i = 0; i < N; i++)
        pthread_join(th[i], 0);
    int a = x;
    int b = y;
    assert(a == b);
    return 0;
}
