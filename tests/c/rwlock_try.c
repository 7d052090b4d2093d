/* porlab-test
   verdict: safe
   naive: complete=17 blocked=0 errors=0
   optimal: complete=5 blocked=0
   partition: interleavings=17 mazurkiewicz=5 reads-from=5 rvf=5
*/
/* pthread_rwlock_tryrdlock and _trywrlock: each either gets the lock at once or returns EBUSY,
   never waits. main may write x (1, then 2) under a write lock it got by trywrlock; the other
   thread reads it under a read lock it got by tryrdlock: never the intermediate 1.
   Events (porlab's rwlock: a mutex M and a reader count R): main: spawn, trylock M, [read R,
   then if 0: x = 1, x = 2, unlock M; else unlock M], join; reader: trylock M, [R += 1, unlock
   M, read x, R -= 1]. main's trylock first: the reader's fails anywhere in main's 4 events
   before main's unlock (4 interleavings) or succeeds after it (1). The reader's first: main's
   fails before the reader's unlock of M (2), or succeeds after it: right after the unlock, main
   reads R before the reader's decrement (5 merges) or after (1); after the reader's read of x,
   before (2) or after (1) the decrement; after the decrement (1): 5 + 2 + 6 + 3 + 1 = 17. Classes:
   main's trylock first, the reader's failing (1) or succeeding (1); the reader's first, main's
   failing (1), or succeeding and reading R = 1 (1) or 0 (1): 5. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x;

void *reader(void *arg) {
    (void)arg;
    int r = pthread_rwlock_tryrdlock(&rw);
    if (r == 0) {
        int a = x;
        pthread_rwlock_unlock(&rw);
        assert(a == 0 || a == 2);
    } else {
        assert(r == EBUSY);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    int r = pthread_rwlock_trywrlock(&rw);
    if (r == 0) {
        x = 1;
        x = 2;
        pthread_rwlock_unlock(&rw);
    } else {
        assert(r == EBUSY);
    }
    pthread_join(t, 0);
    return 0;
}
