/* qspinlock(N): the Linux queued spinlock (kernel/locking/qspinlock.c, the generic slow path of
   Linux 4.x with a 32-bit lock word: locked bit, pending bit, tail), N threads taking it once
   each around a counter increment (Godot Table I, qspinlock). Fast path: CAS 0 -> LOCKED. Slow
   path: wait while the word is exactly PENDING (a hand-over in progress); a CAS loop that sets
   the lock bit, or the pending bit if only the lock bit is set, and queues on any other
   contention; the pending waiter polls the lock bit, then clears pending and sets locked. A
   queued thread initialises its MCS node, tries the lock once more, publishes itself as the
   tail with a CAS loop, links behind its predecessor and waits for its node's flag, waits for
   lock and pending to clear, then takes the lock (clearing the tail if it is the last waiter)
   and hands the MCS queue to its successor. Unlock subtracts LOCKED. The kernel's spin
   conditions test bits of the lock word, so no await replaces them; only the MCS node wait does.
   Reproduces Godot Table I exactly with `--unroll N+1`, Nidhugg's bound
   (N + 1 visits of a loop header): qspinlock(2) 6+2 in every column; qspinlock(3) baseline and PLP
   564+462, PLP+Await and +IFAA 564+456. `--loops none` gives 9324+4440 = 13764 executions for
   qspinlock(3) and 10+2 = 12 for qspinlock(2), the SAVER paper's GenMC\S counts. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 3
#endif
#define LOCKED 1
#define PENDING 2
#define LOCKED_PENDING_MASK 3
#define TAIL_MASK (~3)
#define TAIL_SHIFT 2

struct mcs_node {
    _Atomic(struct mcs_node *) next;
    atomic_int locked;
};

atomic_int val;
struct mcs_node nodes[N];
int counter;

static int cmpxchg(atomic_int *p, int old, int new_) {
    atomic_compare_exchange_strong(p, &old, new_);
    return old;
}

static int trylock(void) {
    int v = atomic_load(&val);
    return v == 0 && cmpxchg(&val, 0, LOCKED) == 0;
}

static void slowpath(int v, int cpu) {
    struct mcs_node *node = &nodes[cpu];
    const int tail = (cpu + 1) << TAIL_SHIFT;
    int old;
    int new_;
    if (v == PENDING) {  /* wait for a pending -> locked hand-over */
        while ((v = atomic_load(&val)) == PENDING) {
        }
    }
    for (;;) {  /* trylock or set pending */
        if (v & ~LOCKED) goto queue;
        new_ = LOCKED;
        if (v == new_) new_ |= PENDING;
        old = cmpxchg(&val, v, new_);
        if (old == v) break;
        v = old;
    }
    if (new_ == LOCKED) return;  /* we won the trylock */
    while (atomic_load(&val) & LOCKED) {  /* pending: wait for the owner to go away */
    }
    atomic_fetch_add(&val, -PENDING + LOCKED);  /* clear pending, set locked */
    return;
queue:
    atomic_store(&node->locked, 0);
    atomic_store(&node->next, NULL);
    if (trylock()) return;
    {  /* xchg_tail */
        int w = atomic_load(&val);
        for (;;) {
            old = cmpxchg(&val, w, (w & LOCKED_PENDING_MASK) | tail);
            if (old == w) break;
            w = old;
        }
    }
    struct mcs_node *next = NULL;
    if (old & TAIL_MASK) {
        struct mcs_node *prev = &nodes[(old >> TAIL_SHIFT) - 1];
        atomic_store(&prev->next, node);
        while (!atomic_load(&node->locked)) {  /* arch_mcs_spin_lock_contended */
        }
        next = atomic_load(&node->next);
    }
    while ((v = atomic_load(&val)) & LOCKED_PENDING_MASK) {
    }
    for (;;) {
        if ((v & TAIL_MASK) != tail) {
            atomic_fetch_or(&val, LOCKED);  /* set_locked */
            break;
        }
        old = cmpxchg(&val, v, LOCKED);
        if (old == v) return;  /* no contention: the queue is empty now */
        v = old;
    }
    if (!next) {
        while (!(next = atomic_load(&node->next))) {
        }
    }
    atomic_store(&next->locked, 1);  /* arch_mcs_spin_unlock_contended */
}

static void lock(int cpu) {
    int v = cmpxchg(&val, 0, LOCKED);
    if (v != 0) slowpath(v, cpu);
}

static void unlock(void) { atomic_fetch_sub(&val, LOCKED); }

static void *worker(void *arg) {
    lock((int)(long)arg);
    counter++;
    unlock();
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (long i = 0; i < N; i++) pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(counter == N);
    assert(atomic_load(&val) == 0);
    return 0;
}
