/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   twin: tests/c/twins.py name=rwlock_misuse
   naive: complete=138 blocked=0 errors=30
   optimal: complete=10 blocked=0
   partition: interleavings=168 mazurkiewicz=20 reads-from=20 rvf=20
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 35 and
   by t1:reader's read at line 25, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
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
