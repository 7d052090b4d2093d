/* porlab-test
   args: --disable-race-detection
   verdict: violation use-after-free
   naive: complete=10 blocked=0 errors=35
   optimal: complete=2 blocked=0
   rf: complete=2 blocked=0
   rf-graph: complete=2 blocked=0
   lapor: complete=2 blocked=0
   partition: mazurkiewicz=8 reads-from=8 rvf=8
*/
/* Data race (C11; porlab reports it by default): the heap cell is written by both writers,
   neither happening before the other. The test is about the interleavings of these accesses as
   written, so its header turns the check off (--disable-race-detection);
   tests/python/test_bugchecks.py tests the race check. */
/* Two writers race with a free. main: *b = 0; g = b; spawn t1; spawn t2 (s2); free(b) (F)
   t1: p = g (rg1); *p = 1 (w1)   t2: p = g (rg2); *p = 2 (w2). Each rg has one source (main's
   write before the spawns) and commutes with everything else. Complete when w1 and w2 both come
   before F: F reads the later of the two, 2 classes; F is then the last event and the other
   four (s2 < rg2 < w2, rg1 < w1) interleave in C(5,2) = 10 ways. Errors: the first write after
   F faults and ends the execution. w1 faults: the other writer has done nothing (s2, rg1, F in
   any order with s2 before F: 3 interleavings), only rg2 (s2 first of s2, F, rg2, rg1 anywhere:
   2 * 4 = 8) or also w2 before F (s2 rg2 w2 F, rg1 anywhere: 5): 16 interleavings, 3 classes
   (F reads 0, 0, 2). w2 faults: t1 did nothing (s2 first of s2, F, rg2: 2), only rg1 (2 * 4 =
   8) or also w1 before F (s2 < F, s2 < rg2, rg1 < w1 < F: 4 + 3 + 2 = 9 by the place of s2): 19
   interleavings, 3 classes. 35 error interleavings, 6 error classes. */
#include <pthread.h>
#include <stdlib.h>

int *g;

void *writer(void *arg) {
    int *p = g;
    *p = (int)(long)arg; // porlab: error
    return 0;
}

int main(void) {
    int *b = malloc(sizeof(int));
    *b = 0;
    g = b;
    pthread_t t1, t2;
    pthread_create(&t1, 0, writer, (void *)1L);
    pthread_create(&t2, 0, writer, (void *)2L);
    free(b);
    return 0;
}
