/* mcslock(N): the MCS queue lock after the Linux kernel's mcs_spinlock.h, N threads taking it
   once each around a counter increment (Godot Table I, mcslock). Each thread enqueues its own
   node with an exchange on the tail and spins on its node's flag; unlock hands the lock to the
   successor, waiting for it to link itself in. That last wait calls cpu_relax() in the kernel;
   here __porlab_opaque() stands for the call: a no-op that porlab's loop analyses treat as an
   effect, as Nidhugg's PLP and spin-assume treat a call they do not look into (g = False), so
   they leave the loop alone. (A fence would not do: under sequential consistency it is pure.)
   Reproduces Godot Table I exactly in every Nidhugg column with `--unroll N+1`
   (Nidhugg's bound: N + 1 visits of a loop header): mcslock(3) baseline and PLP 336+426,
   PLP+Await and +IFAA 336+72; mcslock(4) baseline and PLP 26232+33432, PLP+Await and +IFAA
   26232+4824. With `--loops none` mcslock(3) has 4566+1398 = 5964 executions, the SAVER
   paper's GenMC\S count. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 3
#endif

void __porlab_opaque(void);
#define cpu_relax() __porlab_opaque()

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
            cpu_relax();
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
