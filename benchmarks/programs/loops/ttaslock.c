/* ttaslock(N): N threads take a test-and-test-and-set lock once each and increment a counter
   (Godot Table I, ttaslock). The inner loop polls the lock; the exchange retries when it finds
   the lock taken. --loops=plp-await turns the inner loop into an await and the exchange into
   an exchange-await, so no execution is blocked. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

atomic_int lock;
int counter;

static void acquire(void) {
    while (1) {
        while (atomic_load(&lock) != 0) {
        }
        if (atomic_exchange(&lock, 1) == 0) return;
    }
}

static void release(void) { atomic_store(&lock, 0); }

static void *worker(void *arg) {
    (void)arg;
    acquire();
    counter++;
    release();
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(counter == N);
    return 0;
}
