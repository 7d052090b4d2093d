/* porlab-test
   verdict: violation deadlock
   naive: complete=1320 blocked=0 errors=15
   optimal: complete=6 blocked=0
   partition: mazurkiewicz=7 reads-from=7 rvf=7
   twin-blocked: tests/c/twins.py name=philosophers_deadlock
*/
/* Three dining philosophers who take the left fork first: when all hold their left fork, they
   deadlock. main creates them and returns. The C program reports the deadlocks as errors; the
   builder twin counts them as blocked traces (twin-blocked). */
#include <pthread.h>

pthread_mutex_t fork_[3] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                            PTHREAD_MUTEX_INITIALIZER};

void *philosopher(void *arg) {
    int i = (int)(long)arg;
    int left = i, right = (i + 1) % 3;
    int first = left, second = right;
    pthread_mutex_lock(&fork_[first]);
    pthread_mutex_lock(&fork_[second]);
    pthread_mutex_unlock(&fork_[second]);
    pthread_mutex_unlock(&fork_[first]);
    return 0;
}

int main(void) {
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&th[i], 0, philosopher, (void *)(long)i);
    return 0;
}
