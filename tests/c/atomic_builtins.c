/* porlab-test
   verdict: safe
   naive: complete=56 blocked=0 errors=0
   optimal: complete=6 blocked=0
   partition: interleavings=56 mazurkiewicz=6 reads-from=6 rvf=6
   twin: tests/c/twins.py name=atomic_builtins
*/
/* GCC __atomic builtins (every memory order is treated as SC): message passing with
   __atomic_store_n / __atomic_load_n, __atomic_exchange_n, __atomic_compare_exchange_n and
   __atomic_fetch_or. */
#include <assert.h>
#include <pthread.h>

int data, ready, slot, bits;

void *producer(void *arg) {
    (void)arg;
    __atomic_store_n(&data, 5, __ATOMIC_RELAXED);
    __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    __atomic_fetch_or(&bits, 1, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    int r = __atomic_load_n(&ready, __ATOMIC_ACQUIRE);
    int d = __atomic_load_n(&data, __ATOMIC_RELAXED);
    assert(!(r == 1 && d != 5));
    int old = __atomic_exchange_n(&slot, 3, __ATOMIC_SEQ_CST);
    int expected = 3;
    int ok = __atomic_compare_exchange_n(&slot, &expected, 4, 0, __ATOMIC_SEQ_CST,
                                         __ATOMIC_SEQ_CST);
    assert(old == 0 && ok);
    __atomic_fetch_or(&bits, 2, __ATOMIC_SEQ_CST);
    pthread_join(t, 0);
    assert(__atomic_load_n(&bits, __ATOMIC_SEQ_CST) == 3);
    return 0;
}
