/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): data is accessed by main's write at line 30
   and by t1:reader's read at line 22, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* MP with its SC assertion in the reader: seeing the flag (a = 1) implies seeing the data. */
#include <assert.h>
#include <pthread.h>

int data, flag;

void *reader(void *arg) {
    (void)arg;
    int a = flag;
    int b = data;
    assert(!(a == 1 && b == 0));
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    data = 1;
    flag = 1;
    return 0;
}
