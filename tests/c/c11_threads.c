/* porlab-test
   args: --loops none
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=3 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* C11 <threads.h>: thrd_create / thrd_join (with the thread's int result), mtx_lock / unlock,
   cnd_wait / cnd_signal with a predicate loop, thrd_current / thrd_equal, and their return
   codes (thrd_success). They are pthread's events under other names. main: spawn; lock; read
   ready; (0: wait = read the signal count, unlock, await a signal, lock; read ready) unlock;
   join. worker: lock; ready = 1; signal; unlock.
   main locks first (reads 0 and waits; the worker then locks, sets, signals, and main's await
   passes before or after the worker's unlock: 2 interleavings), or the worker does (1): 3
   interleavings; the await and the worker's unlock do not conflict: 2 classes. */
#include <assert.h>
#include <threads.h>

mtx_t m;
cnd_t c;
int ready;

int worker(void *arg) {
    mtx_lock(&m);
    ready = 1;
    cnd_signal(&c);
    mtx_unlock(&m);
    return (int)(long)arg + 1;
}

int main(void) {
    assert(mtx_init(&m, mtx_plain) == thrd_success);
    assert(cnd_init(&c) == thrd_success);
    thrd_t t;
    assert(thrd_create(&t, worker, (void *)6) == thrd_success);
    assert(mtx_lock(&m) == thrd_success);
    while (!ready) assert(cnd_wait(&c, &m) == thrd_success);
    assert(mtx_unlock(&m) == thrd_success);
    int res = 0;
    assert(thrd_join(t, &res) == thrd_success && res == 7);
    assert(!thrd_equal(t, thrd_current()) && thrd_equal(thrd_current(), thrd_current()));
    thrd_yield();
    cnd_destroy(&c);
    mtx_destroy(&m);
    return 0;
}
