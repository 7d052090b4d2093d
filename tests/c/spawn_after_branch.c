/* porlab-test
   verdict: safe
   naive: complete=7 blocked=0 errors=0
   optimal: complete=5 blocked=0
   rf: complete=3 blocked=0
   rvf: complete=3 blocked=0
   value-centric: complete=4 blocked=0
   data-centric: complete=4 blocked=0
   partition: interleavings=7 mazurkiewicz=5 reads-from=3 rvf=3 value-centric=4 data-centric=4
   twin: tests/c/twins.py name=spawn_after_branch
*/
/* main reads v0, writes 1 to it unless it read 1, writes 2, then spawns child, which reads v0;
   t1 writes 1. Where main reads t1's 1, its conditional write goes and its spawn comes one
   step earlier: rf, rvf, value-centric and data-centric lost a class here (the child's visible
   writes were cached from the branch explored before; random seeds 956 and 1379 of the C++
   conformance suite, shrunk). Classes: main's read reads 0 or t1's 1; reading 0, the child
   reads main's 2 or t1's 1 (t1's write after main's 2): 3 reads-from (and rvf) classes. Every
   access is to v0, so a Mazurkiewicz class is where t1's write goes among main's read, its
   writes and the child's read: before the read (main reads 1), or after it and before main's
   first write, between its writes, before the child's read, after it: 5. */
#include <pthread.h>
#include <stdatomic.h>

atomic_int v0;
int r_;

void *child(void *arg) {
    (void)arg;
    r_ = atomic_load(&v0);
    return 0;
}

void *t1(void *arg) {
    (void)arg;
    atomic_store(&v0, 1);
    return 0;
}

int main(void) {
    pthread_t h1, h2;
    pthread_create(&h1, 0, t1, 0);
    int a = atomic_load(&v0);
    if (a != 1) atomic_store(&v0, 1);
    atomic_store(&v0, 2);
    pthread_create(&h2, 0, child, 0);
    return 0;
}
