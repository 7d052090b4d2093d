/* fib_bench(N) (SV-COMP pthread/fib_bench, as in the LAPOR paper's Table 1 with N = 5): every
   __VERIFIER_atomic section is a critical section of one mutex. i = j = 1; t1 does N times
   { i += j }, t2 N times { j += i }; main spawns both, then { condI = i >= 144 } and
   { condJ = j >= 144 }, each its own section. With locks as read-modify-writes (rf, optimal)
   every order of the 2N + 2 sections is a class: (2N + 2)! / (N! N! 2!), 16632 for N = 5;
   lock-aware (lapor) classes only order sections that touch the same variable: 5922 for N = 5.
   Expected verdict: safe (main returns the conditions, it asserts nothing). With -DCHECK=1 main
   asserts !(condI || condJ), as SV-COMP's fib_bench_false does: a violation for N >= 5 (only
   when t1 and t2 strictly alternate does the tenth section write fib(12) = 144), safe below.
   Scale with -DN=... (default 5). */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 5
#endif
#ifndef CHECK
#define CHECK 0
#endif

pthread_mutex_t atomic_lock = PTHREAD_MUTEX_INITIALIZER;
int i = 1, j = 1;

void *t1(void *arg) {
    (void)arg;
    for (int k = 0; k < N; k++) {
        pthread_mutex_lock(&atomic_lock);
        i = i + j;
        pthread_mutex_unlock(&atomic_lock);
    }
    return 0;
}

void *t2(void *arg) {
    (void)arg;
    for (int k = 0; k < N; k++) {
        pthread_mutex_lock(&atomic_lock);
        j = j + i;
        pthread_mutex_unlock(&atomic_lock);
    }
    return 0;
}

int main(void) {
    pthread_t h1, h2;
    pthread_create(&h1, 0, t1, 0);
    pthread_create(&h2, 0, t2, 0);
    pthread_mutex_lock(&atomic_lock);
    int condI = i >= 144;
    pthread_mutex_unlock(&atomic_lock);
    pthread_mutex_lock(&atomic_lock);
    int condJ = j >= 144;
    pthread_mutex_unlock(&atomic_lock);
#if CHECK
    assert(!(condI || condJ));
#endif
    return condI || condJ;
}
