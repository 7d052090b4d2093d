/* porlab-test
   args: --unroll 3
   verdict: safe
   naive: complete=160 blocked=35 errors=0
   optimal: complete=6 blocked=2
   partition: interleavings=195 mazurkiewicz=8 reads-from=8 rvf=8
   twin: tests/c/twins.py name=spinlock_tas
*/
/* spinlock_tas.c written with C11's atomic_flag (test_and_set / clear, an 8-bit exchange and
   store) and sched_yield() in the spin loop (no effect in porlab): the same events, so the same
   twin and counts. */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

atomic_flag lock = ATOMIC_FLAG_INIT;
int count;

void *worker(void *arg) {
    (void)arg;
    while (atomic_flag_test_and_set(&lock))
        sched_yield();
    count = count + 1;
    atomic_flag_clear(&lock);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 2);
    return 0;
}
