/* nww-lock-rr(N) (LAPOR paper, Table 2; GenMC's tests/correct/lapor/N-ww-lock-rr): thread i
   (i = 1..N) does lock(l); x = i; y = i; unlock(l). main spawns all, joins all, reads x and y and
   asserts they are equal. With locks as read-modify-writes (rf, optimal) every order of the N
   critical sections is a class: N!. Lock-aware (lapor, wb) classes are distinguished only by
   what main reads: the last section's thread, N classes. Expected verdict: safe (the sections
   keep x and y written by the same thread last). Scale with -DN=... (default 5). */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 5
#endif

pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
int x, y;

void *worker(void *arg) {
    int i = (int)(long)arg;
    pthread_mutex_lock(&l);
    x = i;
    y = i;
    pthread_mutex_unlock(&l);
    return 0;
}

int main(void) {
    pthread_t th[N];
    for (int i = 0; i < N; i++)
        pthread_create(&th[i], 0, worker, (void *)(long)(i + 1));
    for (int i = 0; i < N; i++)
        pthread_join(th[i], 0);
    int a = x;
    int b = y;
    assert(a == b);
    return 0;
}
