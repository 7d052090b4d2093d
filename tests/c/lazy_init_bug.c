/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   naive: complete=50 blocked=0 errors=2
   optimal: complete=10 blocked=0
   partition: interleavings=52 mazurkiewicz=12 reads-from=7 rvf=7
   twin: tests/c/twins.py name=lazy_init_bug
*/
/* Data race (C11; porlab reports it by default): initialized is accessed by main's write at
   line 24 and by t1:t1's read at line 23, neither happening before the other, at least one of
   them not atomic. The test is about the interleavings of these accesses as written, so its
   header turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests
   the race check. */
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
