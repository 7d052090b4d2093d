/* porlab-test
   verdict: safe
   naive: complete=19 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=faa_tickets
*/
/* Two threads draw a ticket with fetch-and-add (the result is used) and mark slot[ticket]; main
   checks that both slots are marked. The tickets follow the order of the two FAAs: 2 classes
   (the slot writes then go to different locations). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int next;
int slot[2];

void *worker(void *arg) {
    (void)arg;
    int t = atomic_fetch_add(&next, 1);
    slot[t] = 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(slot[0] == 1 && slot[1] == 1);
    return 0;
}
