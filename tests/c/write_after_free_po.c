/* porlab-test
   args: --disable-race-detection
   verdict: violation use-after-free
   naive: complete=6 blocked=0 errors=13
   optimal: complete=3 blocked=0
   graph: complete=3 blocked=0
   rf-graph: complete=2 blocked=0
   lapor: complete=2 blocked=0
   rf: complete=2 blocked=0
   rvf: complete=2 blocked=0
   partition: mazurkiewicz=11 reads-from=10 rvf=10
*/
/* Data race (C11; porlab reports it by default): the heap cell is written by t1 and by t2,
   neither happening before the other. The test is about the interleavings of these accesses as
   written, so its header turns the check off (--disable-race-detection);
   tests/python/test_bugchecks.py tests the race check. */
/* Two writes of one thread and one of another race with a free; the writers get the pointer
   from the spawn. main: *b = 0; spawn t1 (s1); spawn t2 (s2); free(b) (F)   t1: *p = 1 (w1);
   *p = 2 (w2)   t2: *p = 3 (w3). s1 comes first. Complete when all three writes come before F
   (F is then last): s2 < w3 and w1 < w2 interleave in 4!/(2!2!) = 6 ways; F reads 2 (w3
   before w1, or between w1 and w2: 2 Mazurkiewicz classes, 1 reads-from class) or 3 (w3 last):
   3 Mazurkiewicz, 2 reads-from classes. Errors (the first write after F faults and ends the
   execution): w1 faults (w3 not done: 1 interleaving; w3 before F: 1), w2 faults (w1 before F;
   w3 not done: w1 before or after s2, 2; w3 before F: w1 in 3 places among s2 < w3, 3), w3
   faults (t1 did nothing: 1; w1 only, before F: 2; w1 and w2 before F: 3): 13 interleavings.
   Error classes: 2 + 3 (F reads 1, or w3 before F: F reads 3 or 1) + 3 = 8 under both. The
   reads-from explorers must not tell the two orders of w3 before w2 apart (no read sees them). */
#include <pthread.h>
#include <stdlib.h>

void *t1(void *arg) {
    int *p = arg;
    *p = 1; // porlab: error
    *p = 2; // porlab: error
    return 0;
}

void *t2(void *arg) {
    int *p = arg;
    *p = 3; // porlab: error
    return 0;
}

int main(void) {
    int *b = malloc(sizeof(int));
    *b = 0;
    pthread_t x, y;
    pthread_create(&x, 0, t1, b);
    pthread_create(&y, 0, t2, b);
    free(b);
    return 0;
}
