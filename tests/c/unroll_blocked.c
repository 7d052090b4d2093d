/* porlab-test
   args: --disable-race-detection --unroll 3
   verdict: safe
   naive: complete=10 blocked=10 errors=0
   optimal: complete=3 blocked=1
   partition: interleavings=20 mazurkiewicz=4 reads-from=4 rvf=4
   twin: tests/c/twins.py name=unroll_blocked
*/
/* Data race (C11; porlab reports it by default): y is accessed by main's write at line 31 and
   by t1:reader's read at line 25, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* A polling loop under --unroll 3: the reader polls x at most 3 times; the writer does two other
   writes before setting x, so many executions exceed the bound and are counted as blocked (never
   silently cut). */
#include <pthread.h>

int x, y;

void *reader(void *arg) {
    (void)arg;
    while (x == 0) {
    }
    return (void *)(long)y;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    y = 1;
    y = 2;
    x = 1;
    return 0;
}
