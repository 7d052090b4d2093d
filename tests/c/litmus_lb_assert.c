/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's read at line 30 and by
   t1:t1's write at line 22, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* LB with its SC assertion (a = b = 1 impossible); b comes back through pthread_join. */
#include <assert.h>
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    int b = y;
    x = 1;
    return (void *)(long)b;
}

int main(void) {
    pthread_t t;
    void *ret;
    pthread_create(&t, 0, t1, 0);
    int a = x;
    y = 1;
    pthread_join(t, &ret);
    assert(!(a == 1 && (long)ret == 1));
    return 0;
}
