/* porlab-test
   verdict: violation unlock-not-held
   naive: complete=0 blocked=0 errors=1
*/
/* pthread_rwlock_unlock of a lock nobody holds: a reader's unlock finds no reader registered
   (the count's decrement reads 0), a fault. One execution. */
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

int main(void) {
    pthread_rwlock_unlock(&rw); // porlab: error
    return 0;
}
