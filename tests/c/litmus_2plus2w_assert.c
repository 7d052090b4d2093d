/* porlab-test
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* 2+2W with main reading the final state after the join: x = 1 /\ y = 1 is impossible under
   SC. 6 interleavings, 3 classes; now the final reads tell the classes apart for reads-from and
   RVF too ((x, y) = (2,1), (1,2), (2,2)). */
#include <assert.h>
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    y = 1;
    x = 2;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    y = 2;
    pthread_join(t, 0);
    int fx = x, fy = y;
    assert(!(fx == 1 && fy == 1));
    return 0;
}
