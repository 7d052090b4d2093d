/* porlab-test
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* __VERIFIER_atomic_begin/end: main writes x = 1 then x = 2 in one atomic section; t1 reads x in
   an atomic section of its own, so it sees 0 or 2, never the intermediate 1.
   porlab runs atomic sections as critical sections of one global lock (as GenMC and LAPOR do;
   docs/supported-c.md): sections exclude each other, not plain accesses (atomic_section_plain.c).
   By hand: after main's spawn, one section runs entirely before the other (the second one's
   lock is disabled meanwhile): 2 interleavings, 2 classes (t1 reads 0 or 2). */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int x;

void *t1(void *arg) {
    (void)arg;
    __VERIFIER_atomic_begin();
    int a = x;
    __VERIFIER_atomic_end();
    assert(a != 1);
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
