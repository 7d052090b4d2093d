/* porlab-test
   verdict: safe
   naive: complete=4 blocked=0 errors=0
   optimal: complete=2 blocked=0
   optimal-await: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=1
   twin: examples/godot_fig4.py
*/
/* Godot Figure 4: p: x = 1; x = 0   q: await(x == 0); y = 1. The await reads the initial 0 or
   p's x = 0: 2 classes (1 RVF class: both read 0). main is p. */
#include <pthread.h>

int __VERIFIER_load_await_i32(volatile int *addr, int cond, int operand);

int x, y;

void *q(void *arg) {
    (void)arg;
    __VERIFIER_load_await_i32(&x, 2, 0);
    y = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, q, 0);
    x = 1;
    x = 0;
    return 0;
}
