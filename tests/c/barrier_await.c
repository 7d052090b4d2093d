/* porlab-test
   verdict: safe
   naive: complete=36 blocked=0 errors=0
   optimal: complete=2 blocked=0
   optimal-await+ifaa: complete=1 blocked=0
   partition: interleavings=36 mazurkiewicz=2 mazurkiewicz-ifaa=1 reads-from=2 rvf=2
   twin: tests/c/twins.py name=barrier_await
*/
/* A two-thread barrier from a fetch-and-add and an await: each thread publishes its datum,
   arrives (fetch_add), awaits arrived == 2 (Nidhugg's __VERIFIER_load_await_i32, EQ = 2), then
   reads the other's datum, which must be there. main is thread 0. */
#include <assert.h>
#include <pthread.h>

int __VERIFIER_load_await_i32(volatile int *addr, int cond, int operand);

int data[2];
int arrived;

static void phase(int i) {
    data[i] = i + 1;
    __atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
    __VERIFIER_load_await_i32(&arrived, 2, 2);
    assert(data[1 - i] == 2 - i);
}

void *t1(void *arg) {
    (void)arg;
    phase(1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    phase(0);
    return 0;
}
