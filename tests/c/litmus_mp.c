/* porlab-test
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
   twin: examples/litmus_mp.py
*/
/* MP (message passing): t0: x = 1; y = 1   t1: a = y; b = x. C(4,2) = 6 interleavings after
   main's spawn; (a, b) = (1, 0) is the one forbidden combination of the 2x2 conflict orders. */
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    int a = y;
    int b = x;
    return (void *)(long)(2 * a + b);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    y = 1;
    return 0;
}
