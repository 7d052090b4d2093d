/* porlab-test
   verdict: safe
   naive: complete=2 blocked=1 errors=0
   optimal: complete=1 blocked=1
*/
/* c11_threads.c's misuse: cnd_wait without checking the predicate. When the worker signals
   before main waits, the signal is lost and main waits forever: a blocked execution (porlab's
   condition variables have no spurious wake-ups). The worker first: it locks, sets, signals,
   unlocks; main then waits for a signal that never comes (1 blocked). main first: it waits, the
   worker signals, main's await passes before or after the worker's unlock (2 complete, 1
   class). */
#include <threads.h>

mtx_t m;
cnd_t c;
int ready;

int worker(void *arg) {
    (void)arg;
    mtx_lock(&m);
    ready = 1;
    cnd_signal(&c);
    mtx_unlock(&m);
    return 0;
}

int main(void) {
    mtx_init(&m, mtx_plain);
    cnd_init(&c);
    thrd_t t;
    thrd_create(&t, worker, 0);
    mtx_lock(&m);
    cnd_wait(&c, &m);
    mtx_unlock(&m);
    thrd_join(t, 0);
    return 0;
}
