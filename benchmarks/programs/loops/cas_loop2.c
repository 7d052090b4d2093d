/* cas-loop2(N): N threads each increment a counter once with SAVER's CAS-LOOP2 (§IV),
   `success = false; while (!success) { a = x; success = CAS(x, a, a + 1); }`. The flag is live at
   the loop's header, so spin-assume needs the loop rotated into CAS-LOOP's do-while first
   (SAVER's L), after which every failing CAS blocks. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#ifndef N
#define N 3
#endif

atomic_int x;

static void *inc(void *arg) {
    (void)arg;
    bool success = false;
    while (!success) {
        int a = atomic_load(&x);
        success = atomic_compare_exchange_strong(&x, &a, a + 1);
    }
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++) pthread_create(&t[i], 0, inc, 0);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(atomic_load(&x) == N);
    return 0;
}
