/* w+rs-peeled(N) (SAVER Table II, after its description): one writer writes 1, 2, 3 to x (the
   writing loop unrolled by hand) and N-1 readers wait for x to reach 3 with LOOP-PEEL's second
   scheme, `b = x; while (b != 3) b = x;`. With bisimilar-node merging each reader keeps one read,
   which spin-assume pins to the last write: SAVER explores 1 execution. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

atomic_int x;

static void *writer(void *arg) {
    (void)arg;
    atomic_store(&x, 1);
    atomic_store(&x, 2);
    atomic_store(&x, 3);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    int b = atomic_load(&x);
    while (b != 3) b = atomic_load(&x);
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_create(&t[0], 0, writer, 0);
    for (int i = 1; i < N; i++) pthread_create(&t[i], 0, reader, 0);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(atomic_load(&x) == 3);
    return 0;
}
