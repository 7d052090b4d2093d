/* seqlock(N): a sequence lock (Linux) with N-1 writers and one reader (Godot Table I, seqlock).
   Writers take the lock by a CAS from an even to the next odd sequence number and release it
   with the next even one; the reader retries until it saw the same even number before and after
   reading the two data words, which must then be equal. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

atomic_int seq;
atomic_int d1, d2;

static void *writer(void *arg) {
    int v = (int)(long)arg;
    int s;
    while (1) {
        s = atomic_load(&seq);
        if ((s & 1) == 0 && atomic_compare_exchange_strong(&seq, &s, s + 1)) break;
    }
    atomic_store(&d1, v);
    atomic_store(&d2, v);
    atomic_store(&seq, s + 2);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    int s0, s1, a, b;
    do {
        s0 = atomic_load(&seq);
        a = atomic_load(&d1);
        b = atomic_load(&d2);
        s1 = atomic_load(&seq);
    } while (s0 != s1 || (s0 & 1) != 0);
    assert(a == b);
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_create(&t[0], 0, reader, 0);
    for (int i = 1; i < N; i++) pthread_create(&t[i], 0, writer, (void *)(long)i);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    return 0;
}
