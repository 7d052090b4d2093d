/* exp-bug(N): an exponential-bug chain. Thread 0 sets flag[0]; thread i (1 <= i < N) copies
   flag[i-1] into flag[i]; a checker thread asserts that flag[N-1] is still 0. The assertion fails
   only in the classes where every thread of the chain ran after its predecessor's write: one
   reads-from pattern among 2^(N-1) for the chain, so an explorer must find a needle among
   exponentially many classes. Expected verdict: unsafe (assertion failure). Scale with -DN=...
   (default 4). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 4
#endif

atomic_int flag[N];

void *link(void *arg) {
    int i = (int)(long)arg;
    if (i == 0) atomic_store(&flag[0], 1);
    else atomic_store(&flag[i], atomic_load(&flag[i - 1]));
    return 0;
}

void *checker(void *arg) {
    (void)arg;
    assert(atomic_load(&flag[N - 1]) == 0);
    return 0;
}

int main(void) {
    pthread_t t[N], c;
    for (int i = 0; i < N; ++i) pthread_create(&t[i], 0, link, (void *)(long)i);
    pthread_create(&c, 0, checker, 0);
    for (int i = 0; i < N; ++i) pthread_join(t[i], 0);
    pthread_join(c, 0);
    return 0;
}
