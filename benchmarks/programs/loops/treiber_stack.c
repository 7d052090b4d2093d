/* treiber-stack(N): Treiber's lock-free stack tested with two threads that push one node each
   and N-2 threads that push a node and then pop one (Godot Table I, treiber-stack). Both
   operations retry a CAS on the top pointer; a pop that finds the stack empty returns -1 (it
   cannot here: each popper pushed first). Nodes are never freed (no ABA).
   Reproduces Godot Table I exactly with `--unroll N+1`, Nidhugg's bound
   (N + 1 visits of a loop header): treiber-stack(3) baseline 426, PLP 274+80, PLP+Await 274+60,
   +IFAA 274+60; treiber-stack(4) baseline 1546168+9216, PLP 250088+167916, PLP+Await
   250088+90896, +IFAA 250088+90896. Nidhugg's baseline leaves CAS loops alone, so its column
   is porlab's `--loops none` here; `spin-assume` (SAVER's Def. 3) already blocks a failed pop
   CAS and gives the PLP numbers. */
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

static void *pusher(void *arg) {
    push((int)(long)arg);
    return 0;
}

static void *push_popper(void *arg) {
    push((int)(long)arg);
    int r = pop();
    assert(r >= 1 && r <= N);  /* the thread's own push came first: never empty */
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], 0, i < 2 ? pusher : push_popper, (void *)(i + 1));
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    return 0;
}
