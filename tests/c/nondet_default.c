/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=nondet_default
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's read at line 33 and by
   t1:t1's write at line 26, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* __VERIFIER_nondet_int() returns 0 unless --nondet-domain is given (with a one-time warning):
   the thread then writes 0 + 1. */
#include <assert.h>
#include <pthread.h>

int __VERIFIER_nondet_int(void);

int x;

void *t1(void *arg) {
    (void)arg;
    int v = __VERIFIER_nondet_int();
    x = v + 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    int seen = x;
    pthread_join(t, 0);
    assert(seen == 0 || seen == 1);
    return 0;
}
