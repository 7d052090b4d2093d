/* coa(N): coherence of atomics. N writers each store their own value (1..N) to x; two observer
   threads each load x twice. Sequential consistency makes the coherence order one total order
   that both observers respect: if one observer sees a then b (a != b), the other cannot see b
   then a. The writes are unordered unless a load distinguishes them, so the reads-from classes
   are far fewer than the Mazurkiewicz ones (every order of the N writes). Expected verdict: safe.
   Scale with -DN=... (default 3). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif

atomic_int x;
atomic_int r[4];

void *writer(void *arg) {
    atomic_store(&x, (int)(long)arg);
    return 0;
}

void *observer(void *arg) {
    int k = (int)(long)arg;
    atomic_store(&r[2 * k], atomic_load(&x));
    atomic_store(&r[2 * k + 1], atomic_load(&x));
    return 0;
}

int main(void) {
    pthread_t t[N], o0, o1;
    for (int i = 0; i < N; ++i) pthread_create(&t[i], 0, writer, (void *)(long)(i + 1));
    pthread_create(&o0, 0, observer, (void *)0L);
    pthread_create(&o1, 0, observer, (void *)1L);
    for (int i = 0; i < N; ++i) pthread_join(t[i], 0);
    pthread_join(o0, 0);
    pthread_join(o1, 0);
    int a = atomic_load(&r[0]), b = atomic_load(&r[1]);
    int c = atomic_load(&r[2]), d = atomic_load(&r[3]);
    /* observer 0 saw a then b, observer 1 saw c then d: never opposite orders of two values */
    assert(!(a != b && a != 0 && b != 0 && c == b && d == a));
    return 0;
}
