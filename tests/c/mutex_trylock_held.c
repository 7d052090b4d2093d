/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=93 blocked=0 errors=0
   optimal: complete=9 blocked=0
   partition: interleavings=93 mazurkiewicz=9 reads-from=9 rvf=9 lock-aware=3 lock-aware-mo=6
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's read at line 46 and by
   t1:t1's write at line 29, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* A trylock of a mutex the thread itself holds fails, whoever else is around: t1 locks m,
   trylocks it (EBUSY), unlocks, then writes x = 12 in a second section; t2 writes x = 21 in a
   section; main reads x. Lock-aware classes: main reads 0, 12 or 21 (3); with the order of the
   two sections as well (lock-aware-mo), 6. LAPOR must count the failed trylock as maximally
   added (its only choice), or t2's write never revisits main's read and "reads 21" is lost. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *t1(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_mutex_trylock(&m);
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    x = 12;
    pthread_mutex_unlock(&m);
    return 0;
}

void *t2(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    x = 21;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    int r = x;
    (void)r;
    return 0;
}
