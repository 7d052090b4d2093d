/* porlab-test
   args: --disable-race-detection
   verdict: violation null-dereference
   naive: complete=1 blocked=0 errors=1
   partition: mazurkiewicz=2 reads-from=2 rvf=2
*/
/* Data race (C11; porlab reports it by default): p is accessed by main's write at line 32 and
   by t1:t1's read at line 24, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* A null dereference that depends on the schedule: t1 writes through a global pointer that main
   sets only after creating t1. main: spawn; p = &x.   t1: q = p; *q = 1.
   Rp before Wp: q is null and the store faults (1 error trace: the fault is found when t1 computes
   its next access, so the trace ends with t1's read of p). Rp after Wp: t1 writes x: 1 complete
   trace. */
#include <pthread.h>

int x;
int *p;

void *t1(void *arg) {
    (void)arg;
    int *q = p;
    *q = 1; // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    p = &x;
    return 0;
}
