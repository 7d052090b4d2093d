/* porlab-test
   verdict: safe
   twin: tests/c/twins.py name=rwlock
   naive: complete=5 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=5 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* pthread_rwlock_*: the writer updates x and y under the write lock, the reader reads both
   under the read lock and never sees them differ. porlab's rwlock is a mutex M and a reader
   count R (the twin spells it out): wrlock = lock M, await R == 0; a writer's unlock = unlock M;
   rdlock = lock M, R += 1, unlock M; a reader's unlock = R -= 1. main locks M first (the reader
   waits for the unlock: 1 interleaving) or the reader does (main's lock of M falls in one of 4
   gaps of the reader's events after its unlock of M, and its await after the decrement: 4): 5
   interleavings, 2 classes. */
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x, y;

void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&rw);
    int a = x, b = y;
    pthread_rwlock_unlock(&rw);
    assert(a == b);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    pthread_rwlock_wrlock(&rw);
    x = 1;
    y = 1;
    pthread_rwlock_unlock(&rw);
    pthread_join(t, 0);
    return 0;
}
