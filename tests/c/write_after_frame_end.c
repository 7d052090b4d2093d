/* porlab-test
   args: --disable-race-detection
   verdict: violation invalid-pointer
   naive: complete=4 blocked=0 errors=6
   optimal: complete=3 blocked=0
   rf: complete=3 blocked=0
   rf-graph: complete=3 blocked=0
   lapor: complete=3 blocked=0
   partition: mazurkiewicz=6 reads-from=6 rvf=6
*/
/* Data race (C11; porlab reports it by default): x is written by main (in start()) and read
   and written by t1, neither happening before the other. The test is about the interleavings of
   these accesses as written, so its header turns the check off (--disable-race-detection);
   tests/python/test_bugchecks.py tests the race check. */
/* write_after_free_read.c with a frame end instead of a free: the end of start()'s frame kills
   x (an exchange, like a free) while t1 reads and writes it through the escaped pointer.
   main, in start(): x = 0; g = &x; spawn; x = 5 (w5); return (E, kills x)
   t1: p = g (rg); v = *p (r); *p = v + 1 (w). rg has one source and commutes with w5. Complete
   when r and w both come before E: r, w, w5 (E reads 5); r, w5, w (E reads 1); w5, r, w (E
   reads 6): 3 classes, 1 + 1 + 2 interleavings (rg before or after w5 in the last). Errors: E
   before r (r reads the dead variable: rg before w5, between w5 and E, or after E: 3
   interleavings); r before E and w after it (r reads 0: 1; r reads 5: rg before or after w5,
   2): 3 error classes, 6 interleavings. (The thread handle is global: a local one would be
   killed by the frame end too.) */
#include <pthread.h>

int *g;
pthread_t t;

void *t1(void *arg) {
    (void)arg;
    int *p = g;
    int v = *p; // porlab: error
    *p = v + 1; // porlab: error
    return 0;
}

static void start(void) {
    int x = 0;
    g = &x;
    pthread_create(&t, 0, t1, 0);
    x = 5;
}

int main(void) {
    start();
    return 0;
}
