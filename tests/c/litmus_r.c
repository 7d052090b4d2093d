/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 34 and
   by t1:t1's read at line 26, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* R: t0: x = 1; y = 1   t1: y = 2; a = x. Forbidden under SC: y = 2 at the end and a = 0.
   main is t0, then joins t1 and reads y. Interleavings of {Wx, Wy1} and {Wy2, Rx}: 6 (join and
   the final read come last). Classes: orders of (Wx, Rx) and (Wy1, Wy2); Rx < Wx with
   Wy1 < Wy2 is a cycle (Wy2 <po Rx < Wx <po Wy1 < Wy2): 3. The final read of y tells the y
   order, Rx the other: rf = rvf = 3. */
#include <assert.h>
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    y = 2;
    int a = x;
    return (void *)(long)a;
}

int main(void) {
    pthread_t t;
    void *ret;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    y = 1;
    pthread_join(t, &ret);
    int fy = y;
    assert(!(fy == 2 && (long)ret == 0));
    return 0;
}
