/* porlab-test
   verdict: violation assert
   naive: complete=50 blocked=0 errors=2
   optimal: complete=10 blocked=0
   partition: interleavings=52 mazurkiewicz=12 reads-from=7 rvf=7
   twin: tests/c/twins.py name=lazy_init_bug
*/
/* Broken lazy initialisation: get() publishes the "initialised" flag before the value, so a
   thread that sees the flag can read the value before it is written. main and t1 both call
   get() and assert they saw 42. */
#include <assert.h>
#include <pthread.h>

int initialized, value;

static int get(void) {
    if (!initialized) {
        initialized = 1;
        value = 42;
    }
    return value;
}

void *t1(void *arg) {
    (void)arg;
    int v = get();
    assert(v == 42); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    int v = get();
    assert(v == 42); // porlab: error
    return 0;
}
