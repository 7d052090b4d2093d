/* porlab-test
   verdict: violation division-by-zero
   naive: complete=1 blocked=0 errors=1
   optimal: complete=1 blocked=0
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
*/
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
