/* porlab-test
   verdict: violation assert
   naive: complete=0 blocked=0 errors=1
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
*/
/* The misuse tls_private.c avoids: a __thread variable taken for a shared one. The worker sets
   its own copy of `done`; main's copy stays 0 and the assertion fails in the only execution
   (spawn, join: the worker has no visible event). */
#include <assert.h>
#include <pthread.h>

__thread int done;

void *worker(void *arg) {
    (void)arg;
    done = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    assert(done == 1); // porlab: error
    return 0;
}
