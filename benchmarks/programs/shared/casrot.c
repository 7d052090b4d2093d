/* casrot(N): CAS rotation. N threads; thread i tries once to move the shared counter from i to
   i + 1 with a compare-and-swap, so the counter advances only in the order 0, 1, 2, ... and the
   successful CASes form a chain. Every failed CAS is a read, and two reads of the same write
   commute: the reads-from partition equals the Mazurkiewicz one (each class fixes which value
   every CAS saw). main joins all threads and asserts the counter is between 0 and N.
   Expected verdict: safe. Scale with -DN=... (default 4). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 4
#endif

atomic_int x;

void *rot(void *arg) {
    int i = (int)(long)arg;
    int expected = i;
    atomic_compare_exchange_strong(&x, &expected, i + 1);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; ++i) pthread_create(&t[i], 0, rot, (void *)(long)i);
    for (int i = 0; i < N; ++i) pthread_join(t[i], 0);
    int v = atomic_load(&x);
    assert(v >= 0 && v <= N);
    return 0;
}
