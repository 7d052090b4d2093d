/* porlab-test
   verdict: safe
   naive: complete=26 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=26 mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=mutex_counter
*/
/* mutex_counter.c with its mutex in a malloc'd struct, set up with pthread_mutex_init before the
   workers exist and destroyed after the joins (single-threaded moments: whatever events the
   init and destroy are, they add no interleavings), and the counter in the same struct, set to 0
   before the spawns. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct counter {
    pthread_mutex_t lock;
    int value;
};

void *worker(void *arg) {
    struct counter *c = arg;
    pthread_mutex_lock(&c->lock);
    c->value = c->value + 1;
    pthread_mutex_unlock(&c->lock);
    return 0;
}

int main(void) {
    struct counter *c = malloc(sizeof *c);
    pthread_mutex_init(&c->lock, 0);
    c->value = 0;  // malloc'd memory is uninitialised (reading it is an error)
    pthread_t a, b;
    pthread_create(&a, 0, worker, c);
    pthread_create(&b, 0, worker, c);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(c->value == 2);
    pthread_mutex_destroy(&c->lock);
    free(c);
    return 0;
}
