/* lastwrite(N): N writers store distinct values (1..N) to x, and a reader loads x once. The
   writes to x conflict with each other, so the Mazurkiewicz classes grow with the N! orders of
   the writes, while the reads-from classes are only N + 1 (which write, if any, the reader saw):
   classes collapse exponentially under reads-from. Expected verdict: safe (the reader sees a
   value in 0..N). Scale with -DN=... (default 4). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 4
#endif

atomic_int x;

void *writer(void *arg) {
    atomic_store(&x, (int)(long)arg);
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    int v = atomic_load(&x);
    assert(v >= 0 && v <= N);
    return 0;
}

int main(void) {
    pthread_t t[N], r;
    for (int i = 0; i < N; ++i) pthread_create(&t[i], 0, writer, (void *)(long)(i + 1));
    pthread_create(&r, 0, reader, 0);
    for (int i = 0; i < N; ++i) pthread_join(t[i], 0);
    pthread_join(r, 0);
    return 0;
}
