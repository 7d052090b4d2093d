/* twalock(N): TWA, the ticket lock augmented with a waiting array (Dice & Kogan), N threads
   taking it once each around a counter increment (Godot Table I, twalock). Acquire takes a
   ticket with a fetch-and-add; a thread more than LT tickets from the grant waits in the
   long-term phase (re-reading its waiting-array slot and the grant, and polling the slot until
   it changes), then every waiter polls the grant. Release bumps the grant and then the slot of
   the ticket that now enters the short-term phase.
   With `--unroll N+1` (Nidhugg's bound: N + 1 visits of a loop header) this
   reproduces Godot Table I exactly: twalock(3) baseline and PLP 96+90, PLP+Await and +IFAA 96;
   twalock(4) baseline and PLP 6144+7224, PLP+Await and +IFAA 6144. `--loops none` gives
   1050+288 = 1338 and 829440+189432 = 1018872 executions, the SAVER paper's GenMC\S counts.
   PLP_LIMIT (default 1) puts an opaque call (__porlab_opaque(), a no-op that porlab's loop
   analyses treat as an effect, as Nidhugg's treat a call) at the end of the long-term loop's
   body. Nidhugg's PLP does
   not remove that loop's pure iterations (the path on which the nested slot poll exits at once:
   its condition needs a register of the nested loop), porlab's does; the call makes the loop
   impure for porlab too. With -DPLP_LIMIT=0 (the algorithm as published) the baseline column
   still matches, and porlab's PLP gives 72+90 / 72+12 (n = 3) and 2880+6168 / 2880+1248
   (n = 4): fewer executions, the "more precise PLP" case of ALGORITHMS.md §1.7.6. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif
#ifndef PLP_LIMIT
#define PLP_LIMIT 1
#endif
void __porlab_opaque(void);
#define WA 4 /* waiting-array slots */
#define LT 1 /* long-term threshold */

atomic_int ticket;
atomic_int grant;
atomic_int wa[WA];
int counter;

static void acquire(void) {
    int tx = atomic_fetch_add(&ticket, 1);
    int dx = tx - atomic_load(&grant);
    if (dx == 0) return;
    if (dx > LT) {
        atomic_int *at = &wa[tx % WA];
        for (;;) {
            int u = atomic_load(at);
            dx = tx - atomic_load(&grant);
            if (dx <= LT) break;
            while (atomic_load(at) == u) {
            }
#if PLP_LIMIT
            __porlab_opaque();
#endif
        }
    }
    while (atomic_load(&grant) != tx) {
    }
}

static void release(void) {
    int k = atomic_load(&grant) + 1;
    atomic_store(&grant, k);
    atomic_fetch_add(&wa[(k + LT) % WA], 1);
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
