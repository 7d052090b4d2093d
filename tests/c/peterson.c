/* porlab-test
   args: --disable-race-detection --unroll 2
   verdict: safe
   naive: complete=502 blocked=2024 errors=0
   optimal: complete=12 blocked=8
   partition: interleavings=2526 mazurkiewicz=20 reads-from=19 rvf=19
   twin: tests/c/twins.py name=peterson
*/
/* Data race (C11; porlab reports it by default): flag[0] is accessed by main's write at line 23
   and by t1:t1's read at line 25, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Peterson's mutual exclusion for two threads (correct under SC): main is thread 0, t1 is
   thread 1; each increments a counter in its critical section; main joins and checks 2. The
   waiting loop is bounded by --unroll 2 (executions that would wait longer are blocked). */
#include <assert.h>
#include <pthread.h>

int flag[2], turn, count;

static void critical(int i) {
    flag[i] = 1;
    turn = 1 - i;
    while (flag[1 - i] == 1 && turn == 1 - i) {
    }
    count = count + 1;
    flag[i] = 0;
}

void *t1(void *arg) {
    (void)arg;
    critical(1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    critical(0);
    pthread_join(t, 0);
    assert(count == 2);
    return 0;
}
