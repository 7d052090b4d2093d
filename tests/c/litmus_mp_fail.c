/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   naive: complete=5 blocked=0 errors=1
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=4 reads-from=4 rvf=4
*/
/* Data race (C11; porlab reports it by default): data is accessed by main's write at line 33
   and by t1:reader's read at line 24, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* MP with the reader's loads in the wrong order: b = data; a = flag. The assertion fails when
   b reads before data = 1 and a after flag = 1: only Rdata Wdata Wflag Rflag, 1 of the 6
   interleavings. All 4 orders of the conflicting pairs are acyclic here: 3 complete classes and
   1 error class. */
#include <assert.h>
#include <pthread.h>

int data, flag;

void *reader(void *arg) {
    (void)arg;
    int b = data;
    int a = flag;
    assert(!(a == 1 && b == 0)); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    data = 1;
    flag = 1;
    return 0;
}
