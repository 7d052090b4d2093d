/* treiber-stack(N): Treiber's lock-free stack, N threads each pushing one node and popping one
   (Godot Table I, treiber-stack). Both operations retry a CAS on the top pointer; a pop that
   finds the stack empty returns -1. Nodes are never freed (no ABA). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#ifndef N
#define N 3
#endif

struct node {
    int value;
    struct node *next;
};

_Atomic(struct node *) top;
atomic_int popped_sum;

static void push(int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    struct node *t;
    do {
        t = atomic_load(&top);
        n->next = t;
    } while (!atomic_compare_exchange_strong(&top, &t, n));
}

static int pop(void) {
    struct node *t;
    struct node *next;
    do {
        t = atomic_load(&top);
        if (t == NULL) return -1;
        next = t->next;
    } while (!atomic_compare_exchange_strong(&top, &t, next));
    return t->value;
}

static void *worker(void *arg) {
    int v = (int)(long)arg;
    push(v);
    int r = pop();
    assert(r != -1);  /* every pop follows the thread's own push */
    atomic_fetch_add(&popped_sum, r);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (long i = 0; i < N; i++) pthread_create(&t[i], 0, worker, (void *)(i + 1));
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(atomic_load(&popped_sum) == N * (N + 1) / 2);
    assert(atomic_load(&top) == NULL);
    return 0;
}
