/* porlab-test
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
   twin: examples/litmus_lb.py
*/
/* LB (load buffering): t0: a = x; y = 1   t1: b = y; x = 1. 6 interleavings; a = b = 1 would
   need each read after the other thread's write, which follows its own read: 3 classes. */
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    int b = y;
    x = 1;
    return (void *)(long)b;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    int a = x;
    y = 1;
    return a;
}
