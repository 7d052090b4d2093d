/* porlab-test
   args: --disable-race-detection
   verdict: violation use-after-free
   naive: complete=4 blocked=0 errors=6
   optimal: complete=3 blocked=0
   rf: complete=3 blocked=0
   rf-graph: complete=3 blocked=0
   lapor: complete=3 blocked=0
   partition: mazurkiewicz=6 reads-from=6 rvf=6
*/
/* Data race (C11; porlab reports it by default): malloc@main#0 is accessed by main's write at
   line 42 and by t1:t1's read at line 31, neither happening before the other, at least one of
   them not atomic. The test is about the interleavings of these accesses as written, so its
   header turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests
   the race check. */
/* A read and a write through a pointer race with a free that another write precedes. main:
   *b = 0; g = b; spawn; *b = 5 (w5); free(b) (F)   t1: p = g (rg); v = *p (r); *p = v + 1 (w).
   rg has one source and commutes with w5. Complete when r and w both come before F: r, w, w5
   (F reads 5); r, w5, w (F reads 1); w5, r, w (F reads 6): 3 classes, 1 + 1 + 2 interleavings
   (rg before or after w5 in the last). Errors: F before r (r reads the dead cell: rg before w5,
   between w5 and F, or after F: 3 interleavings); r before F and w after it (r reads 0: 1
   interleaving; r reads 5: rg before or after w5, 2): 3 error classes, 6 interleavings. The
   reads-from explorers used to miss the class r, w, w5 (the write before the free while the free
   reads main's 5): they performed w after the free whenever the free read 5. */
#include <pthread.h>
#include <stdlib.h>

int *g;

void *t1(void *arg) {
    (void)arg;
    int *p = g;
    int v = *p; // porlab: error
    *p = v + 1; // porlab: error
    return 0;
}

int main(void) {
    int *b = malloc(sizeof(int));
    *b = 0;
    g = b;
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    *b = 5;
    free(b);
    return 0;
}
