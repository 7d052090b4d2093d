/* porlab-test
   verdict: safe
   naive: complete=12 blocked=48 errors=0
   optimal: complete=2 blocked=6
   optimal-await: complete=2 blocked=6
   optimal-await+ifaa: complete=1 blocked=1
   partition: mazurkiewicz=8 mazurkiewicz-ifaa=2
   twin: tests/c/twins.py name=godot_fig5
   twin-classes: examples/godot_fig5.py
*/
/* Godot Figure 5: p: x += 1   q: x += 1   r: x += 3   s: await(x == 3); y = 1. The
   fetch-and-add results are unused, so with IFAA they commute (see the twin): 1+1 classes; without
   IFAA 2+6. main spawns the four threads. */
#include <pthread.h>
#include <stdatomic.h>

int __VERIFIER_load_await_i32(volatile int *addr, int cond, int operand);

atomic_int x;
int y;

void *p(void *arg) { (void)arg; atomic_fetch_add(&x, 1); return 0; }
void *q(void *arg) { (void)arg; atomic_fetch_add(&x, 1); return 0; }
void *r(void *arg) { (void)arg; atomic_fetch_add(&x, 3); return 0; }

void *s(void *arg) {
    (void)arg;
    __VERIFIER_load_await_i32((volatile int *)&x, 2, 3);
    y = 1;
    return 0;
}

int main(void) {
    pthread_t h[4];
    pthread_create(&h[0], 0, p, 0);
    pthread_create(&h[1], 0, q, 0);
    pthread_create(&h[2], 0, r, 0);
    pthread_create(&h[3], 0, s, 0);
    return 0;
}
