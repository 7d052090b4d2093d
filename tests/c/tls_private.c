/* porlab-test
   verdict: safe
   naive: complete=5 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: interleavings=5 mazurkiewicz=1 reads-from=1 rvf=1
*/
/* _Thread_local: one copy per thread. Each worker increments its own copy of `counter` (10 in
   every thread at its start) and publishes it; main's copy stays 10. A thread-local whose address
   never leaves its thread lives in the thread's private memory: no events. Visible events: main
   spawn1 spawn2 join1 join2 read result[0] read result[1]; worker i one write of result[i].
   Worker 1's write falls between spawn1 and join1 (2 gaps of main's), worker 2's between spawn2
   and join2 (2 gaps); in the shared gap (spawn2..join1) both orders: 1 + 1 + 1 + 2 = 5
   interleavings, all of one class (the writes touch different locations). */
#include <assert.h>
#include <pthread.h>

_Thread_local int counter = 10;
int result[2];

void *worker(void *arg) {
    long i = (long)arg;
    counter += 1;
    result[i] = counter;
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    assert(result[0] == 11 && result[1] == 11);
    assert(counter == 10);
    return 0;
}
