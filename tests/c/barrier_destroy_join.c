/* porlab-test
   verdict: safe
   naive: complete=1 blocked=0 errors=0
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
*/
/* The fixed twin of barrier_destroy.c: main joins t1 before it destroys the barrier, so t1's
   wait comes first in the only interleaving. */
#include <pthread.h>

pthread_barrier_t b;

void *t1(void *arg) {
    (void)arg;
    pthread_barrier_wait(&b);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_barrier_init(&b, 0, 1);
    pthread_create(&t, 0, t1, 0);
    pthread_join(t, 0);
    pthread_barrier_destroy(&b);
    return 0;
}
