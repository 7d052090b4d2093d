/* mutex(N): a futex-style three-state mutex (Drepper, "Futexes are tricky", mutex 2) with a
   waiter count, N threads taking it once each (Godot Table I, mutex). futex_wait(&m, 2) is a
   polling loop on m != 2 and futex_wake is a no-op, as in a model without a kernel. The waiter
   count is changed by fetch-and-adds whose results are unused (IFAA makes them commute). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

atomic_int m;        /* 0 free, 1 locked, 2 locked with waiters */
atomic_int waiters;
int counter;

static int cas(atomic_int *p, int expected, int desired) {
    atomic_compare_exchange_strong(p, &expected, desired);
    return expected;
}

static void acquire(void) {
    int c = cas(&m, 0, 1);
    if (c == 0) return;
    atomic_fetch_add(&waiters, 1);
    do {
        if (c == 2 || cas(&m, 1, 2) != 0) {
            while (atomic_load(&m) == 2) {
            }
        }
    } while ((c = cas(&m, 0, 2)) != 0);
    atomic_fetch_sub(&waiters, 1);
}

static void release(void) {
    if (atomic_fetch_sub(&m, 1) != 1) atomic_store(&m, 0);
}

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
    assert(atomic_load(&waiters) == 0);
    return 0;
}
