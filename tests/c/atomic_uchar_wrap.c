/* porlab-test
   verdict: safe
   naive: complete=5 blocked=0 errors=0
   optimal: complete=2 blocked=0
   optimal-await+ifaa: complete=1 blocked=0
   partition: interleavings=5 mazurkiewicz=2 mazurkiewicz-ifaa=1 reads-from=2 rvf=2
*/
/* 8-bit atomics wrap: two threads atomic_fetch_add 128 to an _Atomic unsigned char; 128 + 128 is
   0 again. By hand: main: spawn a; spawn b; join a; join b; read. a's add goes before or after
   main's spawn of b, b's before or after main's join of a, both in one gap in either order: 5
   interleavings; the two adds conflict (2 classes), unless IFAA (results unused: 1 class). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

_Atomic unsigned char c;

void *adder(void *arg) {
    (void)arg;
    atomic_fetch_add(&c, 128);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, adder, 0);
    pthread_create(&b, 0, adder, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(atomic_load(&c) == 0);
    return 0;
}
