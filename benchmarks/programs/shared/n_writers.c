/* n-writers(N): N threads each store their own value to x and then load x back. A thread reads
   its own write or a later one of another thread; the Mazurkiewicz classes order all the writes
   (about (2N)!/2^N interleavings of conflicting events), the reads-from classes only say what
   each load saw: exponentially fewer. Expected verdict: safe (every load sees some thread's
   value, never 0: each thread's own write comes before its load). Scale with -DN=... (default
   3). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

atomic_int x;

void *writer(void *arg) {
    int me = (int)(long)arg;
    atomic_store(&x, me);
    int v = atomic_load(&x);
    assert(v >= 1 && v <= N);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; ++i) pthread_create(&t[i], 0, writer, (void *)(long)(i + 1));
    for (int i = 0; i < N; ++i) pthread_join(t[i], 0);
    return 0;
}
