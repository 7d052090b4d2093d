/* twalock(N): a ticket lock with a waiting array (TWA, after Dice & Kogan), N threads taking it
   once each (Godot Table I, twalock). A thread whose ticket is not served at once waits until
   its slot of the waiting array is handed its ticket, then polls the grant counter. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif
#define WA 4

atomic_int ticket;
atomic_int grant;
atomic_int wa[WA];
int counter;

static void acquire(void) {
    int t = atomic_fetch_add(&ticket, 1);
    if (atomic_load(&grant) != t) {
        while (atomic_load(&wa[t % WA]) != t) {
        }
    }
    while (atomic_load(&grant) != t) {
    }
}

static void release(void) {
    int g = atomic_load(&grant) + 1;
    atomic_store(&wa[g % WA], g);
    atomic_store(&grant, g);
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
