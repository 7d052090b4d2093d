/* porlab-test
   verdict: violation assert
   naive: complete=1646 blocked=0 errors=240
   optimal: complete=46 blocked=0
   partition: interleavings=1886 mazurkiewicz=52 reads-from=52 rvf=52
   twin: tests/c/twins.py name=cond_broadcast_bug
*/
/* Two consumers take one item each, waiting with `if` instead of `while` around
   pthread_cond_wait; the producer adds two items one at a time, broadcasting after each. A
   consumer woken by the first broadcast can find its item already taken by the other one (which
   did not have to wait) and takes a missing item: the count goes negative. (Condition variables
   as in cond_signal.c; a broadcast increments the signal counter like a signal.) */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int items;

void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    if (items == 0)
        pthread_cond_wait(&c, &m);
    items = items - 1;
    int left = items;
    pthread_mutex_unlock(&m);
    assert(left >= 0); // porlab: error
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, consumer, 0);
    pthread_create(&b, 0, consumer, 0);
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        items = items + 1;
        pthread_cond_broadcast(&c);
        pthread_mutex_unlock(&m);
    }
    return 0;
}
