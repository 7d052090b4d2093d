/* porlab-test
   verdict: safe
   naive: complete=26 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=mutex_counter
*/
/* Two workers increment a counter under a mutex; main joins both and asserts 2. The two
   critical sections can go in 2 orders: 2 classes. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    count = count + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count == 2);
    return 0;
}
