/* porlab-test
   args: -DN=2
   verdict: safe
   naive: complete=118 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=118 mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=thread_array n=2
*/
/* An array of pthread_t: main creates N workers in a loop, each adds its index + 1 to a shared sum
   under a mutex and writes its own slot; main joins them in a loop and checks both. */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int sum;
int done[N];

void *worker(void *arg) {
    int i = (int)(long)arg;
    pthread_mutex_lock(&m);
    sum += i + 1;
    pthread_mutex_unlock(&m);
    done[i] = 1;
    return 0;
}

int main(void) {
    pthread_t th[N];
    for (int i = 0; i < N; i++)
        pthread_create(&th[i], 0, worker, (void *)(long)i);
    for (int i = 0; i < N; i++)
        pthread_join(th[i], 0);
    assert(sum == N * (N + 1) / 2);
    return 0;
}
