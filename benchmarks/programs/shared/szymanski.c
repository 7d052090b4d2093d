/* szymanski(N): Szymanski's mutual exclusion algorithm for N threads (flags 0..4, the waiting
   room and the door), each thread entering its critical section once. The waits are spin loops
   that read the other threads' flags (porlab's default loop handling turns them into awaits).
   Inside the critical section a thread increments a counter with a fetch-and-add and asserts it
   was alone. Expected verdict: safe (Szymanski's algorithm is correct under sequential
   consistency). Scale with -DN=... (default 2). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 2
#endif

atomic_int flag[N];
atomic_int incs;

/* Is some other thread's flag equal to v? */
static int someone_at(int i, int v) {
    int found = 0;
    for (int j = 0; j < N; ++j)
        if (j != i && atomic_load(&flag[j]) == v) found = 1;
    return found;
}

void *proc(void *arg) {
    int i = (int)(long)arg;
    atomic_store(&flag[i], 1);
    for (int j = 0; j < N; ++j)
        while (atomic_load(&flag[j]) >= 3) {}
    atomic_store(&flag[i], 3);
    if (someone_at(i, 1)) {
        atomic_store(&flag[i], 2);
        while (!someone_at(i, 4)) {}
    }
    atomic_store(&flag[i], 4);
    for (int j = 0; j < i; ++j)
        while (atomic_load(&flag[j]) >= 2) {}
    int c = atomic_fetch_add(&incs, 1);
    assert(c == 0);
    atomic_fetch_sub(&incs, 1);
    for (int j = i + 1; j < N; ++j) {
        int f = atomic_load(&flag[j]);
        while (f == 2 || f == 3) f = atomic_load(&flag[j]);
    }
    atomic_store(&flag[i], 0);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; ++i) pthread_create(&t[i], 0, proc, (void *)(long)i);
    for (int i = 0; i < N; ++i) pthread_join(t[i], 0);
    return 0;
}
