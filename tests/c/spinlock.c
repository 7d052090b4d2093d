/* porlab-test
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* pthread_spin_*: a spin lock is a mutex of 4 bytes (pthread_spinlock_t is an int), here a
   global and one inside a struct. Both threads increment n under the lock: whichever locks
   first runs its critical section while the other waits (a waiting lock is not an event), so
   2 interleavings, the 2 orders of the critical sections. */
#include <assert.h>
#include <pthread.h>

pthread_spinlock_t s;
struct { pthread_spinlock_t lock; int n; } box;

void *w(void *arg) {
    (void)arg;
    pthread_spin_lock(&s);
    pthread_spin_lock(&box.lock);
    box.n = box.n + 1;
    pthread_spin_unlock(&box.lock);
    pthread_spin_unlock(&s);
    return 0;
}

int main(void) {
    pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
    pthread_spin_init(&box.lock, PTHREAD_PROCESS_PRIVATE);
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    w(0);
    pthread_join(t, 0);
    assert(box.n == 2);
    pthread_spin_destroy(&s);
    return 0;
}
