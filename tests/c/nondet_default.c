/* porlab-test
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=nondet_default
*/
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
