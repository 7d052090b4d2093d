/* porlab-test
   verdict: safe
   naive: complete=831 blocked=0 errors=0
   optimal: complete=10 blocked=0
   partition: interleavings=831 mazurkiewicz=10 reads-from=10 rvf=10
   twin: tests/c/twins.py name=cond_broadcast
*/
/* pthread_cond_broadcast wakes every waiter: two workers wait (with `while`, correctly) for a
   start flag that main raises once and broadcasts; each then counts itself in under the mutex.
   main joins both and checks. (Condition variables as in cond_signal.c.) */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t go = PTHREAD_COND_INITIALIZER;
int started, running;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!started)
        pthread_cond_wait(&go, &m);
    running = running + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_mutex_lock(&m);
    started = 1;
    pthread_cond_broadcast(&go);
    pthread_mutex_unlock(&m);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(running == 2);
    return 0;
}
