/* porlab-test
   verdict: violation unlock-not-held
   naive: complete=0 blocked=0 errors=1
*/
/* spinlock.c's misuse: t1 unlocks a spin lock it does not hold (only the holder may unlock).
   porlab checks the owner when the thread reaches the unlock, which t1 does as soon as it is
   spawned (it has no event before): one execution, in which the unlock faults. */
#include <pthread.h>

pthread_spinlock_t s;

void *t1(void *arg) {
    (void)arg;
    pthread_spin_unlock(&s); // porlab: error
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_spin_lock(&s);
    pthread_spin_unlock(&s);
    pthread_join(t, 0);
    return 0;
}
