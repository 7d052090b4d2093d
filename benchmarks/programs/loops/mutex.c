/* mutex(N): a futex-based mutex (three states: 0 free, 1 locked, 2 locked with waiters; the
   acquire of libvsync's futex mutex, a variant of Drepper's "Futexes are tricky" mutex 3), N
   threads taking it once each around a counter increment (Godot Table I, mutex). The futex is
   modelled as model checkers without a kernel do: futex_wake bumps a global signal counter with a
   fetch-and-add whose result is unused (IFAA makes two wakes commute), futex_wait reads the
   counter, returns if the mutex word changed, and otherwise polls until the counter changes.
   With `--unroll N+1` (Nidhugg's bound: N + 1 visits of a loop header) mutex(2)
   reproduces Godot Table I exactly: baseline and PLP 12+2, PLP+Await 12, +IFAA 10 (and
   `--loops none` gives 16+2 = 18, the SAVER paper's GenMC\S count). mutex(3) does not: Godot
   9486+1236 / 6582+1188 / 6582+336 / 3618+312, here 5970+1104 / 1056+1740 / 1056+1194 /
   492+1044 (GenMC\S 59760, here 26814+3030). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

atomic_int m;
atomic_int futex_signal;
int counter;

static int cas(atomic_int *p, int expected, int desired) {
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

static void acquire(void) {
    if (cas(&m, 0, 1) == 0) return;
    while (atomic_exchange(&m, 2) != 0) futex_wait(&m, 2);
}

static void release(void) {
    if (atomic_exchange(&m, 0) == 1) return;
    futex_wake(&m);
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
    return 0;
}
