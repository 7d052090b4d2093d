/* porlab-test
   args: --disable-race-detection
   verdict: violation relock-held
   naive: complete=3 blocked=0 errors=1
   partition: interleavings=4 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* Data race (C11; porlab reports it by default): flag is accessed by main's write at line 36
   and by t1:t1's read at line 25, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Locking a (default, non-recursive) mutex the thread already holds is reported as a fault
   instead of a self-deadlock. t1 locks m twice when it sees the flag set: main: spawn; flag = 1.
   t1: f = flag; lock m; if (f) lock m (fault); unlock m. By hand: t1's read of the flag after
   main's write: the second lock faults (1 error trace); before it: t1 locks once and unlocks,
   and main's write goes before, between or after t1's lock and unlock (3 complete traces, 1
   class: the mutex and the flag do not conflict). 2 classes. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag;

void *t1(void *arg) {
    (void)arg;
    int f = flag;
    pthread_mutex_lock(&m);
    if (f)
        pthread_mutex_lock(&m); // porlab: error
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    flag = 1;
    return 0;
}
