/* mutex-musl(N): the normal mutex of musl libc (pthread_mutex_lock / __lock style), N threads
   taking it once each (Godot Table I, mutex-musl). A short spin while the lock is held and no
   one waits, then a CAS loop that registers as a waiter, marks the lock contended and waits
   (futex_wait as a polling loop). Unlock swaps 0 in. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif
#define SPINS 2
#define LOCKED 1
#define CONTENDED 3

atomic_int lk;
atomic_int waiters;
int counter;

static int cas(atomic_int *p, int expected, int desired) {
    atomic_compare_exchange_strong(p, &expected, desired);
    return expected;
}

static void acquire(void) {
    if (cas(&lk, 0, LOCKED) == 0) return;
    for (int spins = SPINS; spins > 0 && atomic_load(&lk) != 0 && atomic_load(&waiters) == 0; spins--) {
    }
    int r;
    while ((r = cas(&lk, 0, LOCKED)) != 0) {
        atomic_fetch_add(&waiters, 1);
        cas(&lk, LOCKED, CONTENDED);
        while (atomic_load(&lk) == CONTENDED) {
        }
        atomic_fetch_sub(&waiters, 1);
    }
}

static void release(void) { atomic_exchange(&lk, 0); }

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
