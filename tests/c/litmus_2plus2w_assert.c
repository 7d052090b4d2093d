/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 31 and
   by t1:t1's write at line 24, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* 2+2W with main reading the final state after the join: x = 1 /\ y = 1 is impossible under
   SC. 6 interleavings, 3 classes; now the final reads tell the classes apart for reads-from and
   RVF too ((x, y) = (2,1), (1,2), (2,2)). */
#include <assert.h>
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    y = 1;
    x = 2;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    y = 2;
    pthread_join(t, 0);
    int fx = x, fy = y;
    assert(!(fx == 1 && fy == 1));
    return 0;
}
