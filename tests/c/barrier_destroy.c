/* porlab-test
   verdict: violation barrier-destroyed
   naive: complete=1 blocked=0 errors=1
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* A barrier of one thread, destroyed by main while t1 may still wait on it. Events after the
   spawn: main's destroy D (a write of the destroyed word to b) and join; t1's wait, a
   fetch-and-add F of b (a barrier of 1 completes its round at once). By hand: F D: complete;
   D F: F reads the destroyed word and t1 faults (use of a destroyed barrier, line 17). 2
   interleavings, 2 classes (D and F conflict). The fixed twin is barrier_destroy_join.c. */
#include <pthread.h>

pthread_barrier_t b;

void *t1(void *arg) {
    (void)arg;
    pthread_barrier_wait(&b); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_barrier_init(&b, 0, 1);
    pthread_create(&t, 0, t1, 0);
    pthread_barrier_destroy(&b);
    pthread_join(t, 0);
    return 0;
}
