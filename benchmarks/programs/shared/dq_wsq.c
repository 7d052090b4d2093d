/* dq-wsq(N): a work-stealing deque (Chase and Lev's, sequentially consistent atomics, a fixed
   array). The owner pushes N items and then pops until the deque is empty; THIEVES thieves (default
   2) each try one steal. Every item taken is counted with a fetch-and-add: an item taken twice
   (by the owner and a thief, or by two thieves) fails an assertion, and main asserts that every
   item was taken. Expected verdict: safe (the top CAS arbitrates the last item). Scale with
   -DN=... (default 2) and -DTHIEVES=... */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 2
#endif
#ifndef THIEVES
#define THIEVES 2
#endif

#define EMPTY (-1)
#define ABORT (-2)

atomic_int top, bottom;
atomic_int buf[N];
atomic_int taken[N];

static void take(int v) {
    int before = atomic_fetch_add(&taken[v], 1);
    assert(before == 0);
}

static void push(int v) {
    int b = atomic_load(&bottom);
    atomic_store(&buf[b], v);
    atomic_store(&bottom, b + 1);
}

static int pop(void) {
    int b = atomic_load(&bottom) - 1;
    atomic_store(&bottom, b);
    int t = atomic_load(&top);
    if (t > b) {
        atomic_store(&bottom, b + 1);
        return EMPTY;
    }
    int v = atomic_load(&buf[b]);
    if (t == b) {
        if (!atomic_compare_exchange_strong(&top, &t, t + 1)) v = EMPTY;
        atomic_store(&bottom, b + 1);
    }
    return v;
}

static int steal(void) {
    int t = atomic_load(&top);
    int b = atomic_load(&bottom);
    if (t >= b) return EMPTY;
    int v = atomic_load(&buf[t]);
    if (!atomic_compare_exchange_strong(&top, &t, t + 1)) return ABORT;
    return v;
}

void *owner(void *arg) {
    (void)arg;
    for (int i = 0; i < N; ++i) push(i);
    for (int i = 0; i < N; ++i) {
        int v = pop();
        if (v == EMPTY) break;
        take(v);
    }
    return 0;
}

void *thief(void *arg) {
    (void)arg;
    int v = steal();
    if (v >= 0) take(v);
    return 0;
}

int main(void) {
    pthread_t o, t[THIEVES];
    pthread_create(&o, 0, owner, 0);
    for (int i = 0; i < THIEVES; ++i) pthread_create(&t[i], 0, thief, 0);
    pthread_join(o, 0);
    for (int i = 0; i < THIEVES; ++i) pthread_join(t[i], 0);
    for (int i = 0; i < N; ++i) assert(atomic_load(&taken[i]) == 1);
    return 0;
}
