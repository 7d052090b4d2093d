/* porlab-test
   args: --nondet-domain 0:2
   verdict: violation assert
   naive: complete=2 blocked=0 errors=1
   optimal: complete=2 blocked=0
   partition: interleavings=3 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* --nondet-domain LO:HI explores every value of __VERIFIER_nondet_* in the range as a branching
   choice (the issue: "neither Nidhugg nor GenMC can"). t1 writes a nondeterministic value in
   0..2; main joins it and asserts the value is below 2. The join orders everything: one
   interleaving per value, 2 complete (0, 1) and 1 error (2). The traces carry their input (the
   value of t1's first choice), which the equivalence keys include: one class per value, even
   under the equivalences that ignore values (the events are the same). */
#include <assert.h>
#include <pthread.h>

int __VERIFIER_nondet_int(void);

int x;

void *t1(void *arg) {
    (void)arg;
    x = __VERIFIER_nondet_int();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_join(t, 0);
    int v = x;
    assert(v < 2); // porlab: error
    return 0;
}
