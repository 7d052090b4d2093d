/* porlab-test
   args: -DN=3
   verdict: safe
   naive: complete=66 blocked=0 errors=0
   optimal: complete=6 blocked=0
   partition: mazurkiewicz=6 reads-from=6 rvf=6
   twin: tests/c/twins.py name=lapor_rw n=3 locked=1
   twin-classes: examples/lapor_rw_lock.py n=3 locked=True
*/
/* LAPOR rw-lock(N): thread i: lock(l); r = x; x = i + 1; unlock(l). N! classes, one per order of
   the critical sections (3! = 6). main creates the threads. With -DLOCKED=0 see
   lapor_rw.c. */
#include <pthread.h>

#ifndef N
#define N 3
#endif
#ifndef LOCKED
#define LOCKED 1
#endif

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x;

void *worker(void *arg) {
    int i = (int)(long)arg;
#if LOCKED
    pthread_mutex_lock(&l);
#endif
    int r = x;
    x = i + 1;
#if LOCKED
    pthread_mutex_unlock(&l);
#endif
    return (void *)(long)r;
}

int main(void) {
    pthread_t th[N];
    for (int i = 0; i < N; i++)
        pthread_create(&th[i], 0, worker, (void *)(long)i);
    return 0;
}
