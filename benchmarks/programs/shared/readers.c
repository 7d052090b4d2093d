/* readers(N): one writer stores 1 to x; N readers each load x once. Every reader sees the
   initial value or the write: 2^N classes, and the reads-from partition equals the Mazurkiewicz
   one (reads of the same write commute in both). main joins all threads and asserts nothing
   can go wrong. Expected verdict: safe. Scale with -DN=... (default 4). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 4
#endif

atomic_int x;
atomic_int seen[N];

void *writer(void *arg) {
    (void)arg;
    atomic_store(&x, 1);
    return 0;
}

void *reader(void *arg) {
    int i = (int)(long)arg;
    atomic_store(&seen[i], atomic_load(&x));
    return 0;
}

int main(void) {
    pthread_t w, t[N];
    pthread_create(&w, 0, writer, 0);
    for (int i = 0; i < N; ++i) pthread_create(&t[i], 0, reader, (void *)(long)i);
    pthread_join(w, 0);
    for (int i = 0; i < N; ++i) pthread_join(t[i], 0);
    for (int i = 0; i < N; ++i) assert(atomic_load(&seen[i]) <= 1);
    return 0;
}
