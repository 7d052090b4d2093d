/* ms-queue(N): the Michael-Scott lock-free queue, N threads each enqueueing one value and
   dequeueing one (Godot Table I, ms-queue; SAVER Fig. 3 is its dequeue). The dequeue loop has
   an effect-free path (inconsistent snapshot), an effectful one (helping the tail) and an
   effect-free failing CAS. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifndef N
#define N 3
#endif

struct node {
    int value;
    _Atomic(struct node *) next;
};

struct node dummy;
_Atomic(struct node *) head = &dummy;
_Atomic(struct node *) tail = &dummy;
atomic_int sum;

static void enqueue(int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    atomic_store(&n->next, NULL);
    while (1) {
        struct node *t = atomic_load(&tail);
        struct node *next = atomic_load(&t->next);
        if (t != atomic_load(&tail)) continue;
        if (next == NULL) {
            struct node *expected = NULL;
            if (atomic_compare_exchange_strong(&t->next, &expected, n)) {
                atomic_compare_exchange_strong(&tail, &t, n);
                return;
            }
        } else {
            atomic_compare_exchange_strong(&tail, &t, next);
        }
    }
}

static int dequeue(void) {
    while (1) {
        struct node *h = atomic_load(&head);
        struct node *t = atomic_load(&tail);
        struct node *next = atomic_load(&h->next);
        if (h != atomic_load(&head)) continue;
        if (h == t) {
            if (next == NULL) return -1;
            atomic_compare_exchange_strong(&tail, &t, next);
        } else {
            int v = next->value;
            if (atomic_compare_exchange_strong(&head, &h, next)) return v;
        }
    }
}

static void *worker(void *arg) {
    int v = (int)(long)arg;
    enqueue(v);
    int r = dequeue();
    assert(r != -1);  /* the thread's own value is in the queue or was taken by another */
    atomic_fetch_add(&sum, r);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (long i = 0; i < N; i++) pthread_create(&t[i], 0, worker, (void *)(i + 1));
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(atomic_load(&sum) == N * (N + 1) / 2);
    return 0;
}
