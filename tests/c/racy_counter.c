/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   naive: complete=10 blocked=0 errors=9
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=4 reads-from=4 rvf=3
   twin: tests/c/twins.py name=racy_counter
*/
/* Data race (C11; porlab reports it by default): count is accessed by t1:worker's read at line
   26 and by t2:worker's write at line 26, neither happening before the other, at least one of
   them not atomic. The test is about the interleavings of these accesses as written, so its
   header turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests
   the race check. */
/* mutex_counter.c without the mutex: the data race loses an update (count = 1 at the end) when
   both reads come before both writes. Classes of the four accesses R1 W1 R2 W2 (Ri <po Wi):
   the 2 serial orders are complete; when both reads precede both writes, only the order of the
   two writes matters (the reads do not conflict): 2 error classes, 4 in all. Both error classes
   read 0, 0 and write 1, 1: 1 RVF error class, 3 RVF classes. */
#include <assert.h>
#include <pthread.h>

int count;

void *worker(void *arg) {
    (void)arg;
    count = count + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 2); // porlab: error
    return 0;
}
