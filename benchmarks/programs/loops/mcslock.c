/* mcslock(N): the MCS queue lock (Linux mcs_spinlock), N threads taking it once each (Godot
   Table I, mcslock). Each thread enqueues its own node with an exchange on the tail and spins on
   its node's flag; unlock hands the lock to the successor, waiting for it to link itself in. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 3
#endif

struct node {
    _Atomic(struct node *) next;
    atomic_int locked;
};

struct node nodes[N];
_Atomic(struct node *) tail;
int counter;

static void acquire(struct node *me) {
    atomic_store(&me->next, NULL);
    atomic_store(&me->locked, 1);
    struct node *pred = atomic_exchange(&tail, me);
    if (pred == NULL) return;
    atomic_store(&pred->next, me);
    while (atomic_load(&me->locked) != 0) {
    }
}

static void release(struct node *me) {
    struct node *next = atomic_load(&me->next);
    if (next == NULL) {
        struct node *expected = me;
        if (atomic_compare_exchange_strong(&tail, &expected, NULL)) return;
        while ((next = atomic_load(&me->next)) == NULL) {
        }
    }
    atomic_store(&next->locked, 0);
}

static void *worker(void *arg) {
    struct node *me = &nodes[(long)arg];
    acquire(me);
    counter++;
    release(me);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (long i = 0; i < N; i++) pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(counter == N);
    return 0;
}
