/* porlab-test
   args: -DN=3
   verdict: safe
   naive: complete=45 blocked=0 errors=0
   optimal: complete=6 blocked=0
   partition: mazurkiewicz=6 reads-from=6 rvf=6
   twin: tests/c/twins.py name=n_reads_lock n=3
   twin-classes: examples/lapor_n_reads_lock.py n=3
*/
/* LAPOR paper, N-READS-LOCK: N threads, each lock(l); a = x; unlock(l). Locks are
   read-modify-writes of the mutex, so every order of the N critical sections is its own class:
   N! (the builder example has N! interleavings too: while a thread holds the lock only it can
   move). main creates the threads from an array of pthread_t: its spawns add interleavings (45
   for N = 3), not classes (twin-classes: examples/lapor_n_reads_lock.py). Scale with -DN=... */
#include <pthread.h>

#ifndef N
#define N 3
#endif

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x;

void *reader(void *arg) {
    (void)arg;
    pthread_mutex_lock(&l);
    int a = x;
    pthread_mutex_unlock(&l);
    return (void *)(long)a;
}

int main(void) {
    pthread_t th[N];
    for (int i = 0; i < N; i++)
        pthread_create(&th[i], 0, reader, 0);
    return 0;
}
