/* porlab-test
   args: --unroll 2
   verdict: safe
   naive: complete=416 blocked=0 errors=0
   optimal: complete=4 blocked=0
   partition: interleavings=416 mazurkiewicz=4 reads-from=4 rvf=4
   twin: tests/c/twins.py name=treiber_stack
*/
/* A Treiber stack (lock-free, CAS on the top pointer) with malloc'd nodes: two threads push one
   node each, then main (after joining) pops twice and checks it got both values. Each push is a
   CAS loop (read top, link, CAS), bounded by --unroll 2: a push's CAS fails at most once, since
   the other push is the only interference. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

_Atomic(struct node *) top;

static void push(int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    struct node *old;
    do {
        old = atomic_load(&top);
        n->next = old;
    } while (!atomic_compare_exchange_strong(&top, &old, n));
}

static int pop(void) {
    struct node *old;
    struct node *next;
    do {
        old = atomic_load(&top);
        if (old == 0)
            return -1;
        next = old->next;
    } while (!atomic_compare_exchange_strong(&top, &old, next));
    int v = old->value;
    free(old);
    return v;
}

void *pusher(void *arg) {
    push((int)(long)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, pusher, (void *)1L);
    pthread_create(&b, 0, pusher, (void *)2L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int x = pop();
    int y = pop();
    assert(x + y == 3 && x != y);
    assert(pop() == -1);
    return 0;
}
