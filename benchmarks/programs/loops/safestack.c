/* safestack-ABC(k): the lock-free stack from the CHESS forum (later in SCTBench and SV-COMP)
   that Godot §V-B uses, written for porlab after the paper's description: an array-based
   stack of NUM items whose Pop detaches `Next` with an exchange before the CAS on `head`, and
   whose Pop refuses to take the last element (it spins while count <= 1). Thread t performs
   OPSt operations in the order pop, push, pop, push (safestack-21(2): -DOPS0=2 -DOPS1=1);
   after a pop the thread writes its id into the item and asserts it is still there (the ABA
   bug of the original harness, safestack-444, breaks that assertion). Not the artifact's
   source: the counts are comparable in shape only. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef OPS0
#define OPS0 2
#endif
#ifndef OPS1
#define OPS1 1
#endif
#ifndef OPS2
#define OPS2 0
#endif
#define NUM 3

struct item {
    atomic_int value;
    atomic_int next;
};

struct item array[NUM];
atomic_int head;
atomic_int count;

static int pop(void) {
    while (atomic_load(&count) > 1) {
        int head1 = atomic_load(&head);
        int next1 = atomic_exchange(&array[head1].next, -1);
        if (next1 >= 0) {
            int h = head1;
            if (atomic_compare_exchange_strong(&head, &h, next1)) {
                atomic_fetch_sub(&count, 1);
                return head1;
            }
            atomic_exchange(&array[head1].next, next1);
        }
    }
    return -1;
}

static void push(int index) {
    int head1;
    do {
        head1 = atomic_load(&head);
        atomic_store(&array[index].next, head1);
    } while (!atomic_compare_exchange_strong(&head, &head1, index));
    atomic_fetch_add(&count, 1);
}

static void *thread(void *arg) {
    const int id = (int)(long)arg;
    const int ops = id == 0 ? OPS0 : id == 1 ? OPS1 : OPS2;
    int elem = -1;
    for (int i = 0; i < ops; i++) {
        if (i % 2 == 0) {
            do {
                elem = pop();
            } while (elem < 0);
            atomic_store(&array[elem].value, id);
            assert(atomic_load(&array[elem].value) == id);
        } else {
            push(elem);
        }
    }
    return 0;
}

int main(void) {
    for (int i = 0; i < NUM - 1; i++) atomic_store(&array[i].next, i + 1);
    atomic_store(&array[NUM - 1].next, -1);
    atomic_store(&count, NUM);
    pthread_t t[3];
    const int n = OPS2 > 0 ? 3 : 2;
    for (long i = 0; i < n; i++) pthread_create(&t[i], 0, thread, (void *)i);
    for (int i = 0; i < n; i++) pthread_join(t[i], 0);
    return 0;
}
