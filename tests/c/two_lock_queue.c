/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=3010 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=3010 mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=two_lock_queue
*/
/* Data race (C11; porlab reports it by default): malloc@t1#0 is accessed by t1:enqueuer's write
   at line 37 and by t2:dequeuer's read at line 53, neither happening before the other, at least
   one of them not atomic. The test is about the interleavings of these accesses as written, so
   its header turns the check off (--disable-race-detection); tests/python/test_bugchecks.py
   tests the race check. */
/* Michael and Scott's two-lock queue (separate head and tail locks, a dummy node), nodes from
   malloc. main initialises it, E enqueues 1 while D dequeues once; after joining both, main
   dequeues once more: exactly one of D and main gets 1, the other finds the queue empty (-1). */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

struct queue {
    struct node *head;
    struct node *tail;
    pthread_mutex_t hlock;
    pthread_mutex_t tlock;
};

struct queue q = {0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};

static void enqueue(int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = 0;
    pthread_mutex_lock(&q.tlock);
    q.tail->next = n;
    q.tail = n;
    pthread_mutex_unlock(&q.tlock);
}

static int dequeue(void) {
    pthread_mutex_lock(&q.hlock);
    struct node *node = q.head;
    struct node *new_head = node->next;
    if (new_head == 0) {
        pthread_mutex_unlock(&q.hlock);
        return -1;
    }
    int v = new_head->value;
    q.head = new_head;
    pthread_mutex_unlock(&q.hlock);
    return v;
}

void *enqueuer(void *arg) {
    (void)arg;
    enqueue(1);
    return 0;
}

void *dequeuer(void *arg) {
    (void)arg;
    return (void *)(long)dequeue();
}

int main(void) {
    struct node *dummy = malloc(sizeof *dummy);
    dummy->next = 0;
    q.head = dummy;
    q.tail = dummy;
    pthread_t e, d;
    void *got;
    pthread_create(&e, 0, enqueuer, 0);
    pthread_create(&d, 0, dequeuer, 0);
    pthread_join(e, 0);
    pthread_join(d, &got);
    int mine = dequeue();
    assert(((long)got == 1 && mine == -1) || ((long)got == -1 && mine == 1));
    return 0;
}
