/* porlab-test
   args: --disable-race-detection
   verdict: violation use-after-free
   naive: complete=6 blocked=0 errors=4
   optimal: complete=3 blocked=0
   rf-graph: complete=3 blocked=0
   lapor: complete=3 blocked=0
   partition: mazurkiewicz=6 reads-from=6 rvf=6
*/
/* Data race (C11; porlab reports it by default): the heap cell is written by t1 and read and
   written by main, neither happening before the other. The test is about the interleavings of
   these accesses as written, so its header turns the check off (--disable-race-detection);
   tests/python/test_bugchecks.py tests the race check. */
/* write_after_free_read.c with the threads' roles swapped: the free is in the spawned thread,
   the read and the write in main. main: *b = 0; g = b; spawn; v = *b (r); *b = v + 1 (w)
   t1: p = g (rg); *p = 5 (w5); free(p) (F). rg has one source (main's write before the spawn)
   and commutes with r and w. Complete when r and w both come before F: r, w, w5 (F reads 5: rg
   before r, between r and w, or after w, 3 interleavings); r, w5, w (F reads 1: rg before or
   after r, 2); w5, r, w (F reads 6: 1). 3 classes, 6 interleavings. Errors (a fault ends the
   execution): F before r (r reads the dead cell: 1 interleaving, rg w5 F r); r before F and w
   after it (r reads 0: rg before or after r, 2; r reads 5: 1): 3 error classes, 4
   interleavings. The write's fault depends on its order with the free of the other thread. */
#include <pthread.h>
#include <stdlib.h>

int *g;

void *t1(void *arg) {
    (void)arg;
    int *p = g;
    *p = 5;
    free(p);
    return 0;
}

int main(void) {
    int *b = malloc(sizeof(int));
    *b = 0;
    g = b;
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    int v = *b; // porlab: error
    *b = v + 1; // porlab: error
    return 0;
}
