/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   naive: complete=2 blocked=0 errors=4
   optimal: complete=2 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 33 and
   by t1:t1's read at line 25, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* SB asserting something SC does not guarantee: that not both reads see 1. Both see 1 when both
   writes come before both reads: 2 (order of the writes) x 2 (order of the reads) = 4 of the 6
   interleavings fail (one Mazurkiewicz class, a = b = 1); the other 2 interleavings, (0,1) and
   (1,0), are complete. The assertion fails in main after the join. */
#include <assert.h>
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    y = 1;
    int b = x;
    return (void *)(long)b;
}

int main(void) {
    pthread_t t;
    void *ret;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    int a = y;
    pthread_join(t, &ret);
    int b = (int)(long)ret;
    assert(!(a == 1 && b == 1)); // porlab: error
    return 0;
}
