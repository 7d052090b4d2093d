/* porlab-test
   args: --disable-race-detection -DN=3 -DLOCKED=0
   verdict: safe
   naive: complete=280 blocked=0 errors=0
   optimal: complete=36 blocked=0
   partition: mazurkiewicz=36 reads-from=16 rvf=16
   twin: tests/c/twins.py name=lapor_rw n=3 locked=0
   twin-classes: examples/lapor_rw_lock.py n=3 locked=False
*/
/* Data race (C11; porlab reports it by default): x is accessed by t1:worker's read at line 36
   and by t2:worker's write at line 37, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* LAPOR rw(N), the same program as lapor_rw_lock.c without the lock: thread i: r = x; x = i + 1.
   (N+1)^(N-1) = 16 reads-from classes for N = 3 (each read reads the initial value or another
   thread's write, without cycles: rooted forests); 36 Mazurkiewicz classes (from the builder
   twin examples/lapor_rw_lock.py). */
#include <pthread.h>

#ifndef N
#define N 3
#endif
#ifndef LOCKED
#define LOCKED 1
#endif

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x;

void *worker(void *arg) {
    int i = (int)(long)arg;
#if LOCKED
    pthread_mutex_lock(&l);
#endif
    int r = x;
    x = i + 1;
#if LOCKED
    pthread_mutex_unlock(&l);
#endif
    return (void *)(long)r;
}

int main(void) {
    pthread_t th[N];
    for (int i = 0; i < N; i++)
        pthread_create(&th[i], 0, worker, (void *)(long)i);
    return 0;
}
