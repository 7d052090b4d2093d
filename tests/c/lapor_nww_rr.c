/* porlab-test
   args: --disable-race-detection -DN=2 -DLOCKED=0
   verdict: violation assert
   naive: complete=15 blocked=0 errors=4
   optimal: complete=2 blocked=0
   partition: interleavings=19 mazurkiewicz=4 reads-from=4 rvf=4
   twin: examples/lapor_nww_lock_rr.py n=2 locked=False
*/
/* Data race (C11; porlab reports it by default): x is accessed by t1:worker's write at line 34
   and by t2:worker's write at line 34, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* LAPOR nww-rr(N): lapor_nww_lock_rr.c without the lock. main reads x from thread i and y from
   thread j in N^2 = 4 reads-from classes; the N^2 - N = 2 with i != j fail the assertion. */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif
#ifndef LOCKED
#define LOCKED 1
#endif

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x, y;

void *worker(void *arg) {
    int i = (int)(long)arg;
#if LOCKED
    pthread_mutex_lock(&l);
#endif
    x = i;
    y = i;
#if LOCKED
    pthread_mutex_unlock(&l);
#endif
    return 0;
}

int main(void) {
    pthread_t th[N];
    for (int i = 0; i < N; i++)
        pthread_create(&th[i], 0, worker, (void *)(long)(i + 1));
    for (int i = 0; i < N; i++)
        pthread_join(th[i], 0);
    int a = x;
    int b = y;
    assert(a == b); // porlab: error
    return 0;
}
