/* porlab-test
   args: --disable-race-detection
   verdict: safe
   twin: tests/c/twins.py name=barrier
   naive: complete=630 blocked=0 errors=0
   optimal: complete=14 blocked=0
   partition: interleavings=630 mazurkiewicz=14 reads-from=14 rvf=14
*/
/* Data race (C11; porlab reports it by default): x[1] is accessed by main's read at line 31 and
   by t1:w's write at line 29, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* pthread_barrier_wait, two rounds of one barrier of 2 threads: each thread publishes the round
   number, waits, and must then see the other's number of that round; exactly one waiter per
   round gets PTHREAD_BARRIER_SERIAL_THREAD. porlab's barrier is one word, (count << 32) +
   arrivals: init writes it, a waiter fetch-adds 1 and, unless it completes the round, awaits the
   word reaching the round's end ((2 << 32) + 2 for the first round, + 4 for the second): the twin
   spells these events out. */
#include <assert.h>
#include <pthread.h>

pthread_barrier_t b;
int x[2];

void *w(void *arg) {
    long i = (long)arg, serial = 0;
    for (int round = 1; round <= 2; round++) {
        x[i] = round;
        if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD) serial++;
        assert(x[1 - i] >= round);
    }
    return (void *)serial;
}

int main(void) {
    pthread_barrier_init(&b, 0, 2);
    pthread_t t;
    pthread_create(&t, 0, w, (void *)1);
    long mine = (long)w((void *)0);
    void *theirs;
    pthread_join(t, &theirs);
    assert(mine + (long)theirs == 2);
    pthread_barrier_destroy(&b);
    return 0;
}
