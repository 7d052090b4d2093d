/* qspinlock(N): a simplified Linux queued spinlock, N threads taking it once each (Godot Table
   I, qspinlock). A fast path CAS 0 → LOCKED; one waiter spins with the PENDING bit set; the
   others queue in an MCS queue, whose head waits for the lock word to clear, takes the lock and
   hands the queue head to its successor. Unlock subtracts LOCKED. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 3
#endif
#define LOCKED 1
#define PENDING 2

struct qnode {
    _Atomic(struct qnode *) next;
    atomic_int wait;
};

atomic_int val;
struct qnode nodes[N];
_Atomic(struct qnode *) qtail;
int counter;

static void acquire(struct qnode *me) {
    int expected = 0;
    if (atomic_compare_exchange_strong(&val, &expected, LOCKED)) return;
    expected = LOCKED;
    if (atomic_compare_exchange_strong(&val, &expected, LOCKED | PENDING)) {
        while ((atomic_load(&val) & LOCKED) != 0) {
        }
        atomic_store(&val, LOCKED);  /* pending -> locked: nobody else can take it now */
        return;
    }
    atomic_store(&me->next, NULL);
    atomic_store(&me->wait, 1);
    struct qnode *pred = atomic_exchange(&qtail, me);
    if (pred != NULL) {
        atomic_store(&pred->next, me);
        while (atomic_load(&me->wait) != 0) {
        }
    }
    while (1) {
        while (atomic_load(&val) != 0) {
        }
        expected = 0;
        if (atomic_compare_exchange_strong(&val, &expected, LOCKED)) break;
    }
    struct qnode *mine = me;
    if (!atomic_compare_exchange_strong(&qtail, &mine, NULL)) {
        struct qnode *next;
        while ((next = atomic_load(&me->next)) == NULL) {
        }
        atomic_store(&next->wait, 0);
    }
}

static void release(void) { atomic_fetch_sub(&val, LOCKED); }

static void *worker(void *arg) {
    acquire(&nodes[(long)arg]);
    counter++;
    release();
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
