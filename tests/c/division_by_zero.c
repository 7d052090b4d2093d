/* porlab-test
   args: --disable-race-detection
   verdict: violation division-by-zero
   naive: complete=1 blocked=0 errors=1
   optimal: complete=1 blocked=0
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* Data race (C11; porlab reports it by default): d is accessed by main's write at line 29 and
   by t1:t1's read at line 21, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* A division by a shared value that another thread has not written yet: main: spawn; d = 4.
   t1: q = 100 / d. The read before the write divides by 0 (1 error), after it by 4 (1 complete). */
#include <pthread.h>

int d;

void *t1(void *arg) {
    (void)arg;
    int v = d;
    int q = 100 / v; // porlab: error
    return (void *)(long)q;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    d = 4;
    return 0;
}
