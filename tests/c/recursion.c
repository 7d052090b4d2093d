/* porlab-test
   verdict: safe
   naive: complete=5 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: interleavings=5 mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=recursion
*/
/* Recursive functions run as thread-local code (no events): each thread computes a Fibonacci
   number recursively and publishes it; main reads both after the joins. */
#include <assert.h>
#include <pthread.h>

int result[2];

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

void *worker(void *arg) {
    int i = (int)(long)arg;
    result[i] = fib(6 + i);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)0L);
    pthread_create(&b, 0, worker, (void *)1L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(result[0] == 8 && result[1] == 13);
    return 0;
}
