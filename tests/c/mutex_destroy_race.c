/* porlab-test
   verdict: violation mutex-destroyed destroy-locked-mutex
   naive: complete=1 blocked=0 errors=2
   partition: interleavings=3 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* main destroys m without joining t1, which locks and unlocks it (GenMC reports both errors).
   Events after the spawn: main's destroy D (an exchange writing 0 to m), t1's lock L and unlock
   U, all on m, so every order is its own class under every equivalence. By hand: D L: t1's lock
   happens and faults (use of a destroyed mutex, line 18); L D U: D reads 1, t1 holds m: main
   faults (destroy of a locked mutex, line 26), t1 unlocks; L U D: complete. 3 interleavings, 1
   complete, 2 errors. The fixed twin is mutex_destroy_join.c. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *t1(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m); // porlab: error
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_mutex_destroy(&m); // porlab: error
    return 0;
}
