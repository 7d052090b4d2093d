/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
   twin: tests/c/twins.py name=escaped_stack
*/
/* Data race (C11; porlab reports it by default): g is accessed by main's write at line 35 and
   by t1:t1's read at line 27, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* A stack variable of main whose address is given to a thread is shared memory: main and the
   thread race on it (an SB between main's local flag and a global). The thread's own locals stay
   invisible. */
#include <assert.h>
#include <pthread.h>

int g;

void *t1(void *arg) {
    int *shared = arg;
    int local = 5;
    local = local * 2;
    *shared = local;
    int seen = g;
    return (void *)(long)seen;
}

int main(void) {
    int flag = 0;
    pthread_t t;
    pthread_create(&t, 0, t1, &flag);
    g = 1;
    int seen = flag;
    void *ret;
    pthread_join(t, &ret);
    assert(seen == 10 || (long)ret == 1);
    return 0;
}
