/* porlab-test
   verdict: safe
   naive: complete=10 blocked=0 errors=0
   optimal: complete=4 blocked=0
   partition: interleavings=10 mazurkiewicz=4 reads-from=4 rvf=4
   twin: tests/c/twins.py name=stdatomic_ops
*/
/* C11 <stdatomic.h> read-modify-writes with results used: fetch_sub, fetch_and, fetch_xor,
   exchange and compare_exchange_weak (one attempt), on atomic_int and atomic_long. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int a = 10;
atomic_long b = 0xff;
atomic_int c;

void *t1(void *arg) {
    (void)arg;
    int old = atomic_fetch_sub(&a, 3);
    long ob = atomic_fetch_and(&b, 0x0f);
    int ex = 0;
    int won = atomic_compare_exchange_weak(&c, &ex, 1);
    return (void *)(long)(old + (int)ob + won);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    long ob = atomic_fetch_xor_explicit(&b, 0x1, memory_order_relaxed);
    int oc = atomic_exchange(&c, 2);
    pthread_join(t, 0);
    assert(atomic_load(&a) == 7);
    long fb = atomic_load(&b);
    assert(fb == 0x0e || fb == 0x0f);
    (void)ob;
    (void)oc;
    return 0;
}
