/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=2 blocked=1 errors=0
   optimal: complete=2 blocked=1
   partition: interleavings=3 mazurkiewicz=3 reads-from=3 rvf=3
   twin: tests/c/twins.py name=assume_filter
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 35 and
   by t1:t1's read at line 26, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* __VERIFIER_assume prunes executions: t1 reads x and assumes it is not 1, so the assertion
   a != 1 after it holds; executions where t1 read 1 are blocked, not errors. main writes 1 then
   2. */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_assume(int cond);

int x;

void *t1(void *arg) {
    (void)arg;
    int a = x;
    __VERIFIER_assume(a != 1);
    assert(a != 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    x = 2;
    return 0;
}
