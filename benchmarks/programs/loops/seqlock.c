/* seqlock(N): a sequence lock (Linux seqlock_t) tested with one reader, one writer and N-2
   threads that read and then write (Godot Table I, seqlock). The reader retries until it saw the
   same even sequence number before and after reading the data (a `continue` while the number
   is odd); writers are serialised by a mutex (the seqlock's spinlock) and bump the sequence
   number around the data store.
   Reproduces Godot Table I exactly with `--unroll N+1`, Nidhugg's bound
   (N + 1 visits of a loop header): seqlock(3) PLP 9+83, PLP+Await 9+36, +IFAA 9+36;
   seqlock(4) PLP 88+2769, PLP+Await 88+729, +IFAA 88+729. The Nidhugg-baseline column
   (147+230, 87980+104583) is not reproduced by `spin-assume`, which removes both retry paths of
   the read loop where Nidhugg's pass leaves the retry after a changed sequence number. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

atomic_int seq;
atomic_int data;
pthread_mutex_t wlock = PTHREAD_MUTEX_INITIALIZER;

static int read_data(void) {
    while (1) {
        int old = atomic_load(&seq);
        if (old % 2 == 1) continue;
        int res = atomic_load(&data);
        if (atomic_load(&seq) == old) return res;
    }
}

static void write_data(int v) {
    pthread_mutex_lock(&wlock);
    atomic_store(&seq, atomic_load(&seq) + 1);
    atomic_store(&data, v);
    atomic_store(&seq, atomic_load(&seq) + 1);
    pthread_mutex_unlock(&wlock);
}

static void *reader(void *arg) {
    (void)arg;
    int v = read_data();
    assert(v >= 0 && v < N);
    return 0;
}

static void *writer(void *arg) {
    write_data((int)(long)arg);
    return 0;
}

static void *reader_writer(void *arg) {
    int v = read_data();
    assert(v >= 0 && v < N);
    write_data((int)(long)arg);
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_create(&t[0], 0, reader, 0);
    pthread_create(&t[1], 0, writer, (void *)1L);
    for (long i = 2; i < N; i++) pthread_create(&t[i], 0, reader_writer, (void *)i);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(atomic_load(&seq) == 2 * (N - 1));
    return 0;
}
