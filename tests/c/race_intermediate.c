/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   naive: complete=4 blocked=0 errors=1
   optimal: complete=2 blocked=0
   partition: interleavings=5 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 36 and
   by t1:T2's read at line 27, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* A data race breaks an assertion: lapor_ww_r_mixed.c with T2 asserting a != 1.
   LAPOR WW+R-MIXED: T1: lock; x = 1; x = 2; unlock   T2: a = x (no lock). The unprotected read
   sees 0, 1 or 2: 3 classes of the 5 interleavings (the read before the lock, between lock and
   x = 1, between the writes, between x = 2 and unlock, after unlock). main is T1.
   Only the read between the two writes sees 1: 1 error interleaving (its own class), 4
   complete in 2 classes. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x;

void *T2(void *arg) {
    (void)arg;
    int a = x;
    assert(a != 1); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, T2, 0);
    pthread_mutex_lock(&l);
    x = 1;
    x = 2;
    pthread_mutex_unlock(&l);
    return 0;
}
