/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=3 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 32 and
   by t1:t1's read at line 23, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* CoRR (read-read coherence): t1 reads x twice; it can never see the new value then the old.
   main: spawn; x = 1. The write goes before, between or after the two reads: 3 interleavings,
   3 classes with (a, b) = (1,1), (0,1), (0,0). */
#include <assert.h>
#include <pthread.h>

int x;

void *t1(void *arg) {
    (void)arg;
    int a = x;
    int b = x;
    assert(!(a == 1 && b == 0));
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    return 0;
}
