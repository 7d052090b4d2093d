/* porlab-test
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=3 mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=cond_signal
*/
/* A condition variable hands over one datum: the consumer waits under the mutex while the flag
   is 0; main sets data and flag under the mutex and signals.
   porlab models pthread_cond_wait(c, m) as: read c's signal counter; unlock m; await the counter
   != the value read; lock m (no spurious wake-ups), and pthread_cond_signal as an increment of the
   counter; the twin spells this out.
   By hand: after main's spawn, either main's critical section comes first (the consumer then
   locks, sees the flag and never waits: 1 interleaving), or the consumer's: it reads flag 0 and
   waits; main then runs its whole section, and the consumer's await goes before or after main's
   unlock (2 interleavings, 1 class: the await and the unlock are on different locations). */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, data;

void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&c, &m);
    int v = data;
    pthread_mutex_unlock(&m);
    assert(v == 42);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, consumer, 0);
    pthread_mutex_lock(&m);
    data = 42;
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}
