/* ms-queue(N): the Michael-Scott lock-free queue as in the CDSChecker and GenMC test suites (a
   dummy node, `enqueue` swinging tail->next then the tail, `dequeue` helping a lagging tail and
   moving the head with a CAS), tested with one enqueuer, one dequeuer and N-2 threads that
   enqueue and then dequeue (Godot Table I, ms-queue). Nodes are never freed.
   With `--unroll N+1` (Nidhugg's bound: N + 1 visits of a loop header):
   * `--loops none` gives 1341+48 = 1389 executions for ms-queue(3), the SAVER paper's GenMC\S
     count, so the harness has the artifact's interleavings.
   * -DSPIN_ASSUME_HEAD_CAS=1 blocks a dequeue whose CAS on the head fails (the only loop path
     Nidhugg's and GenMC's spin-assume remove here) and then `--loops none` gives Godot's
     Nidhugg baseline exactly, 901+374 (and with `--unroll N+2` GenMC's baseline, 925+350).
     Godot's PLP found nothing more (its purity condition degrades to [False]), so 901+374 is
     every Nidhugg column of ms-queue(3).
   * porlab's passes leave this dequeue alone (1341+48 in every column): its loop has one
     backedge, and the paths to it store `*ret` (a visible stack write) or swing the tail. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#ifndef N
#define N 3
#endif
#ifndef SPIN_ASSUME_HEAD_CAS
#define SPIN_ASSUME_HEAD_CAS 0
#endif

void __VERIFIER_assume(int);

struct node {
    int value;
    _Atomic(struct node *) next;
};

_Atomic(struct node *) qhead;
_Atomic(struct node *) qtail;

static void enqueue(int val) {
    bool success = false;
    struct node *node = malloc(sizeof *node);
    node->value = val;
    atomic_store(&node->next, NULL);
    struct node *tail;
    struct node *next;
    while (!success) {
        tail = atomic_load(&qtail);
        next = atomic_load(&tail->next);
        if (tail == atomic_load(&qtail)) {
            if (next == NULL) success = atomic_compare_exchange_strong(&tail->next, &next, node);
            if (!success) {
                struct node *ptr = atomic_load(&tail->next);
                atomic_compare_exchange_strong(&qtail, &tail, ptr);
            }
        }
    }
    atomic_compare_exchange_strong(&qtail, &tail, node);
}

static bool dequeue(int *ret) {
    bool success = false;
    struct node *head;
    struct node *tail;
    struct node *next;
    while (!success) {
        head = atomic_load(&qhead);
        tail = atomic_load(&qtail);
        next = atomic_load(&head->next);
        if (atomic_load(&qhead) == head) {
            if (head == tail) {
                if (next == NULL) return false;
                atomic_compare_exchange_strong(&qtail, &tail, next);
            } else {
                *ret = next->value;
                success = atomic_compare_exchange_strong(&qhead, &head, next);
#if SPIN_ASSUME_HEAD_CAS
                __VERIFIER_assume(success);
#endif
            }
        }
    }
    return true;
}

static void *enqueuer(void *arg) {
    enqueue((int)(long)arg);
    return 0;
}

static void *dequeuer(void *arg) {
    (void)arg;
    int v = 0;
    if (dequeue(&v)) assert(v >= 1 && v <= N);
    return 0;
}

static void *enqueuer_dequeuer(void *arg) {
    enqueue((int)(long)arg);
    int v = 0;
    if (dequeue(&v)) assert(v >= 1 && v <= N);
    return 0;
}

int main(void) {
    struct node *dummy = malloc(sizeof *dummy);
    atomic_store(&dummy->next, NULL);
    atomic_store(&qhead, dummy);
    atomic_store(&qtail, dummy);
    pthread_t t[N];
    pthread_create(&t[0], 0, enqueuer, (void *)1L);
    pthread_create(&t[1], 0, dequeuer, 0);
    for (long i = 2; i < N; i++) pthread_create(&t[i], 0, enqueuer_dequeuer, (void *)i);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    return 0;
}
