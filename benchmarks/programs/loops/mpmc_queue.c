/* mpmc-queue(N): Vyukov's bounded multi-producer multi-consumer queue (per-cell sequence
   numbers), N/2 producers (rounded up) and the rest consumers, one element each; a consumer
   waits until an element is there (Godot Table I, mpmc-queue). The counters of elements put in
   and taken out are fetch-and-adds with unused results (IFAA). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif
#define CAP 2
#define PRODUCERS ((N + 1) / 2)

struct cell {
    atomic_int seq;
    int data;
};

struct cell cells[CAP] = {{0, 0}, {1, 0}};
atomic_int enq_pos;
atomic_int deq_pos;
atomic_int put, taken;

static int try_enqueue(int v) {
    int pos = atomic_load(&enq_pos);
    while (1) {
        struct cell *c = &cells[pos % CAP];
        int s = atomic_load(&c->seq);
        int dif = s - pos;
        if (dif == 0) {
            if (atomic_compare_exchange_strong(&enq_pos, &pos, pos + 1)) {
                c->data = v;
                atomic_store(&c->seq, pos + 1);
                return 1;
            }
        } else if (dif < 0) {
            return 0;  /* full */
        } else {
            pos = atomic_load(&enq_pos);
        }
    }
}

static int try_dequeue(int *v) {
    int pos = atomic_load(&deq_pos);
    while (1) {
        struct cell *c = &cells[pos % CAP];
        int s = atomic_load(&c->seq);
        int dif = s - (pos + 1);
        if (dif == 0) {
            if (atomic_compare_exchange_strong(&deq_pos, &pos, pos + 1)) {
                *v = c->data;
                atomic_store(&c->seq, pos + CAP);
                return 1;
            }
        } else if (dif < 0) {
            return 0;  /* empty */
        } else {
            pos = atomic_load(&deq_pos);
        }
    }
}

static void *producer(void *arg) {
    while (!try_enqueue((int)(long)arg)) {
    }
    atomic_fetch_add(&put, 1);
    return 0;
}

static void *consumer(void *arg) {
    (void)arg;
    int v;
    while (!try_dequeue(&v)) {
    }
    assert(v >= 1 && v <= PRODUCERS);
    atomic_fetch_add(&taken, 1);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], 0, i < PRODUCERS ? producer : consumer, (void *)(i + 1));
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(atomic_load(&taken) <= atomic_load(&put));
    return 0;
}
