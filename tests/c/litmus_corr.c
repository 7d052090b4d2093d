/* porlab-test
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=3 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* CoRR (read-read coherence): t1 reads x twice; it can never see the new value then the old.
   main: spawn; x = 1. The write goes before, between or after the two reads: 3 interleavings,
   3 classes with (a, b) = (1,1), (0,1), (0,0). */
#include <assert.h>
#include <pthread.h>

int x;

void *t1(void *arg) {
    (void)arg;
    int a = x;
    int b = x;
    assert(!(a == 1 && b == 0));
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    return 0;
}
