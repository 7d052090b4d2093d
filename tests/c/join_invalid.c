/* porlab-test
   args: --disable-race-detection
   verdict: violation invalid-thread
   naive: complete=1 blocked=0 errors=1
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* Data race (C11; porlab reports it by default): h is accessed by main's write at line 31 and
   by t1:t1's read at line 23, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Joining a handle that names no thread: t1 joins the handle it finds in a global, which main
   sets to a real thread (itself, 0)... only after t1 has had the chance to read the garbage
   initial value 12345. main: spawn; h = self   t1: read h; join h. By hand: t1 reads before
   main's write: it joins thread 12345, which does not exist (1 error); after: t1 joins main,
   which finishes (1 complete). */
#include <pthread.h>

pthread_t h = 12345;

void *t1(void *arg) {
    (void)arg;
    pthread_t target = h;
    pthread_join(target, 0); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    h = pthread_self();
    return 0;
}
