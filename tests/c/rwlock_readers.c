/* porlab-test
   verdict: violation assert
   twin: tests/c/twins.py name=rwlock_readers
   naive: complete=108 blocked=0 errors=10
   optimal: complete=10 blocked=0
   partition: interleavings=118 mazurkiewicz=14 reads-from=14 rvf=14
*/
/* Two readers hold a read-write lock at once: each counts itself in `inside` while holding the
   read lock, and the assertion that it is alone fails when both are inside (with a mutex, or
   with the write lock, it could not fail). */
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int inside;

void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&rw);
    int n = __atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST);
    assert(n == 1); // porlab: error
    __atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
    pthread_rwlock_unlock(&rw);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    reader(0);
    pthread_join(t, 0);
    return 0;
}
