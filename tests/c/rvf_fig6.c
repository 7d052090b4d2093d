/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=35 blocked=0 errors=0
   optimal: complete=12 blocked=0
   partition: interleavings=35 mazurkiewicz=12 reads-from=5 rvf=3
   twin: examples/rvf_fig6.py
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 32 and
   by t1:thr2's write at line 22, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* RVF-SMC paper, Figure 6 (see the twin for the derivation of 35, 5 and 3). main is thr1 (thread
   0, as in the twin), thr2 is spawned first thing. */
#include <pthread.h>

int x, y;

void *thr2(void *arg) {
    (void)arg;
    x = 1;          /* w3 */
    y = 1;          /* w4 */
    int r2 = y;     /* r2 */
    x = 2;          /* w5 */
    return (void *)(long)r2;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, thr2, 0);
    x = 1;          /* w1 */
    int r1 = x;     /* r1 */
    y = 1;          /* w2 */
    return r1;
}
