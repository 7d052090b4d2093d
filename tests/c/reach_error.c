/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   naive: complete=3 blocked=0 errors=1
   optimal: complete=2 blocked=0
   partition: interleavings=4 mazurkiewicz=3 reads-from=3 rvf=3
   twin: tests/c/twins.py name=reach_error
*/
/* Data race (C11; porlab reports it by default): flag is accessed by main's write at line 32
   and by t1:reader's read at line 24, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* SV-COMP style: reach_error() marks the bug. The reader sees the flag set but the data not yet
   written because the writer publishes the flag first. */
#include <pthread.h>

extern void reach_error(void);

int data, flag;

void *reader(void *arg) {
    (void)arg;
    if (flag == 1 && data == 0)
        reach_error(); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    flag = 1;
    data = 42;
    return 0;
}
