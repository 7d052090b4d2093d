/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=19 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=19 mazurkiewicz=3 reads-from=3 rvf=3
   twin: tests/c/twins.py name=malloc_buffer
*/
/* Data race (C11; porlab reports it by default): calloc@main#0 is accessed by t1:w0's write at
   line 23 and by t2:w1's read at line 31, neither happening before the other, at least one of
   them not atomic. The test is about the interleavings of these accesses as written, so its
   header turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests
   the race check. */
/* A calloc'd buffer shared through the thread argument: each of two workers writes its own
   element and reads the other's; main joins, checks both elements and frees the buffer (after
   the joins: the free is main's last action). Heap cells are shared locations like globals. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

void *w0(void *p) {
    int *buf = p;
    buf[0] = 10;
    int other = buf[1];
    return (void *)(long)other;
}

void *w1(void *p) {
    int *buf = p;
    buf[1] = 11;
    int other = buf[0];
    return (void *)(long)other;
}

int main(void) {
    int *buf = calloc(2, sizeof(int));
    pthread_t t0, t1;
    pthread_create(&t0, 0, w0, buf);
    pthread_create(&t1, 0, w1, buf);
    pthread_join(t0, 0);
    pthread_join(t1, 0);
    assert(buf[0] == 10 && buf[1] == 11);
    free(buf);
    return 0;
}
