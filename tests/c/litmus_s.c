/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 32 and
   by t1:t1's write at line 24, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* S: t0: x = 2; y = 1   t1: a = y; x = 1. Forbidden under SC: a = 1 and x = 2 at the end.
   Orders of (Wx2, Wx1) and (Wy, Ry); Wy < Ry with Wx1 < Wx2 is cyclic: 3 classes of the 6
   interleavings. */
#include <assert.h>
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    int a = y;
    x = 1;
    return (void *)(long)a;
}

int main(void) {
    pthread_t t;
    void *ret;
    pthread_create(&t, 0, t1, 0);
    x = 2;
    y = 1;
    pthread_join(t, &ret);
    int fx = x;
    assert(!((long)ret == 1 && fx == 2));
    return 0;
}
