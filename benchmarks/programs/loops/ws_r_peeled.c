/* ws+r-peeled(N) (SAVER Table II, after its description): N-1 writers each write 1, 2, 3 to
   their own shared variable (the writing loop unrolled by hand), and one reader waits for every
   variable to reach 3 with LOOP-PEEL's second scheme, `b = v; while (b != 3) b = v;`. Merging the
   peeled read with the loop's (bisimilarity) leaves one read per variable, which spin-assume
   pins to the last write: SAVER explores 1 execution. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

atomic_int v[N];

static void *writer(void *arg) {
    atomic_int *x = &v[(long)arg];
    atomic_store(x, 1);
    atomic_store(x, 2);
    atomic_store(x, 3);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    for (int i = 1; i < N; i++) {
        int b = atomic_load(&v[i]);
        while (b != 3) b = atomic_load(&v[i]);
    }
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_create(&t[0], 0, reader, 0);
    for (long i = 1; i < N; i++) pthread_create(&t[i], 0, writer, (void *)i);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    for (int i = 1; i < N; i++) assert(atomic_load(&v[i]) == 3);
    return 0;
}
