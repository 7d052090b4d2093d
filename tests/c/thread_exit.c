/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=thread_exit
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's read at line 38 and by
   t1:t1's write at line 23, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* pthread_exit from a nested call ends the thread: the write after it never happens. The value
   passed to pthread_exit comes back through pthread_join. pthread_self is compared with the
   result of a second call. */
#include <assert.h>
#include <pthread.h>

int x, y;

static void finish(int v) {
    x = v;
    pthread_exit((void *)(long)v);
}

void *t1(void *arg) {
    (void)arg;
    finish(7);
    y = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    void *ret;
    pthread_create(&t, 0, t1, 0);
    int seen = x;
    pthread_join(t, &ret);
    assert((long)ret == 7);
    assert(y == 0);
    pthread_t self = pthread_self();
    assert(self == pthread_self());
    return seen;
}
