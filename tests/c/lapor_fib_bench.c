/* porlab-test
   args: -DNUM=2
   verdict: safe
   naive: complete=270 blocked=0 errors=0
   optimal: complete=90 blocked=0
   partition: interleavings=270 mazurkiewicz=90 reads-from=90 rvf=90
   twin: examples/lapor_fib_bench.py num=2
*/
/* fib_bench (SV-COMP, LAPOR paper) with each atomic section as a critical section of one mutex:
   i = j = 1; t1: NUM x { i += j }; t2: NUM x { j += i }; main: spawn t1; spawn t2;
   { condI = i >= 144 }; { condJ = j >= 144 }. Reads-from classes are the orders of the 2 NUM + 2
   critical sections: (2 NUM + 2)! / (NUM! NUM! 2!) = 90 for NUM = 2. */
#include <pthread.h>

#ifndef NUM
#define NUM 2
#endif

pthread_mutex_t atomic_lock = PTHREAD_MUTEX_INITIALIZER;
int i = 1, j = 1;

void *t1(void *arg) {
    (void)arg;
    for (int k = 0; k < NUM; k++) {
        pthread_mutex_lock(&atomic_lock);
        i = i + j;
        pthread_mutex_unlock(&atomic_lock);
    }
    return 0;
}

void *t2(void *arg) {
    (void)arg;
    for (int k = 0; k < NUM; k++) {
        pthread_mutex_lock(&atomic_lock);
        j = j + i;
        pthread_mutex_unlock(&atomic_lock);
    }
    return 0;
}

int main(void) {
    pthread_t h1, h2;
    pthread_create(&h1, 0, t1, 0);
    pthread_create(&h2, 0, t2, 0);
    pthread_mutex_lock(&atomic_lock);
    int condI = i >= 144;
    pthread_mutex_unlock(&atomic_lock);
    pthread_mutex_lock(&atomic_lock);
    int condJ = j >= 144;
    pthread_mutex_unlock(&atomic_lock);
    return condI || condJ;
}
