/* porlab-test
   verdict: safe
   naive: complete=1590 blocked=0 errors=0
   optimal: complete=6 blocked=0
   partition: mazurkiewicz=6 reads-from=6 rvf=6
   twin: tests/c/twins.py name=philosophers_ordered
*/
/* Three dining philosophers who take the lower-numbered fork first: no deadlock. main creates them and
   returns. */
#include <pthread.h>

pthread_mutex_t fork_[3] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                            PTHREAD_MUTEX_INITIALIZER};

void *philosopher(void *arg) {
    int i = (int)(long)arg;
    int left = i, right = (i + 1) % 3;
    int first = left < right ? left : right;
    int second = left < right ? right : left;
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
