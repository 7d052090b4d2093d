/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   twin: tests/c/twins.py name=barrier_missing
   naive: complete=4 blocked=0 errors=2
   optimal: complete=1 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x[0] is accessed by main's write at line 23
   and by t1:w's read at line 24, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* barrier.c without its barrier (one round): a thread may read the other's slot before it is
   written. */
#include <assert.h>
#include <pthread.h>

int x[2];

void *w(void *arg) {
    long i = (long)arg;
    x[i] = 1;
    assert(x[1 - i] == 1); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, w, (void *)1);
    w((void *)0);
    pthread_join(t, 0);
    return 0;
}
