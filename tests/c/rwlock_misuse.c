/* porlab-test
   verdict: violation assert
   twin: tests/c/twins.py name=rwlock_misuse
   naive: complete=138 blocked=0 errors=30
   optimal: complete=10 blocked=0
   partition: interleavings=168 mazurkiewicz=20 reads-from=20 rvf=20
*/
/* rwlock.c with the writer taking the lock for reading: readers do not exclude each other, so
   the reader can see x written and y not yet. */
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x, y;

void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&rw);
    int a = x, b = y;
    pthread_rwlock_unlock(&rw);
    assert(a == b); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    pthread_rwlock_rdlock(&rw);  /* the misuse: a writer under a read lock */
    x = 1;
    y = 1;
    pthread_rwlock_unlock(&rw);
    pthread_join(t, 0);
    return 0;
}
