/* mutex-musl(N): the normal mutex of musl libc (pthread_mutex_lock / __pthread_mutex_timedlock
   / __pthread_mutex_unlock with its waiter count, `a_cas`, `a_inc`/`a_dec` and `a_swap`), N
   threads taking it once each around a counter increment (Godot Table I, mutex-musl). Lock: a
   CAS 0 -> 1 (pthread_mutex_lock's fast path), then the CAS again (the trylock of the timed
   lock's loop); while that fails, register as a waiter, mark the lock word contended (sign bit)
   with a CAS and futex-wait on the marked value, then deregister. Unlock swaps 0 in and wakes
   if the word was marked or a waiter is registered. The futex is modelled as in mutex.c
   (futex_wake bumps a signal counter, futex_wait polls it). The initial bounded spin of musl is
   left out, as the SAVER paper unrolls this benchmark by hand and bounds it at 2.
   The bound is the SAVER paper's 2 for this benchmark, porlab's `--unroll 2` (2 visits of a
   loop header), so `main` starts and joins its threads without a loop. With it mutex-musl(2)
   reproduces Godot Table I exactly: baseline and PLP 20+2, PLP+Await 20, +IFAA 20. mutex-musl(3)
   does not: Godot 25146+93000 / 25146+93000 / 25146+81972 / 14736+36846, here 25578+98736 /
   25578+98736 / 25578+87276 / 15132+39606 (the same shape: PLP = baseline, the await removes
   about an eighth of the blocked executions, IFAA halves them). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif
#if N < 2 || N > 4
#error "mutex-musl(N) is written for 2 <= N <= 4"
#endif
#define CONTENDED_BIT (-2147483647 - 1)

atomic_int lk;
atomic_int waiters;
atomic_int futex_signal;
int counter;

static int a_cas(atomic_int *p, int expected, int desired) {
    atomic_compare_exchange_strong(p, &expected, desired);
    return expected;
}

static void futex_wait(atomic_int *addr, int val) {
    int s = atomic_load(&futex_signal);
    if (atomic_load(addr) != val) return;
    while (atomic_load(&futex_signal) == s) {
    }
}

static void futex_wake(atomic_int *addr) {
    (void)addr;
    atomic_fetch_add(&futex_signal, 1);
}

static void mutex_lock(void) {
    if (a_cas(&lk, 0, 1) == 0) return; /* pthread_mutex_lock's fast path */
    int r;
    while ((r = a_cas(&lk, 0, 1)) != 0) {
        atomic_fetch_add(&waiters, 1);
        int t = r | CONTENDED_BIT;
        a_cas(&lk, r, t);
        futex_wait(&lk, t);
        atomic_fetch_sub(&waiters, 1);
    }
}

static void mutex_unlock(void) {
    int cont = atomic_exchange(&lk, 0);
    if (atomic_load(&waiters) || cont < 0) futex_wake(&lk);
}

static void *worker(void *arg) {
    (void)arg;
    mutex_lock();
    counter++;
    mutex_unlock();
    return 0;
}

int main(void) {
    pthread_t t[4];
    pthread_create(&t[0], 0, worker, 0);
    pthread_create(&t[1], 0, worker, 0);
#if N > 2
    pthread_create(&t[2], 0, worker, 0);
#endif
#if N > 3
    pthread_create(&t[3], 0, worker, 0);
#endif
    pthread_join(t[0], 0);
    pthread_join(t[1], 0);
#if N > 2
    pthread_join(t[2], 0);
#endif
#if N > 3
    pthread_join(t[3], 0);
#endif
    assert(counter == N);
    return 0;
}
