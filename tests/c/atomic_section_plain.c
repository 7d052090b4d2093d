/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   naive: complete=4 blocked=0 errors=1
   optimal: complete=2 blocked=0
   partition: interleavings=5 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 40 and
   by t1:t1's read at line 31, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* atomic_section.c with t1's read outside any atomic section. porlab's atomic sections are
   critical sections of one global lock (GenMC/LAPOR; docs/supported-c.md), which exclude other
   atomic sections only: the plain read can see the intermediate x = 1. (SV-COMP reads
   __VERIFIER_atomic_begin/end as "no other thread runs in between", under which this program is
   safe.) By hand: main: spawn; lock; x = 1; x = 2; unlock. t1's read goes in one of the 5 gaps
   after the spawn: it reads 0 (before and after the lock), 1 (between the writes: the error) or
   2 (after x = 2, before or after the unlock). The read conflicts with the writes only: 3 classes,
   2 complete + 1 error. */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int x;

void *t1(void *arg) {
    (void)arg;
    int a = x;
    assert(a != 1); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    __VERIFIER_atomic_begin();
    x = 1;
    x = 2;
    __VERIFIER_atomic_end();
    return 0;
}
