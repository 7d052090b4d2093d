/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=19 blocked=0 errors=0
   optimal: complete=4 blocked=0
   partition: mazurkiewicz=4 reads-from=4 rvf=4
   twin: examples/godot_fig3.py
*/
/* Data race (C11; porlab reports it by default): x is accessed by t1:p's write at line 24 and
   by t2:q's write at line 31, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Godot Figure 3: p: x = 1; y = 1   q: x = 2; y = 2   main: spawn p; spawn q; join p; join q;
   assert(|x - y| < 2). Same events as the builder twin (which has main too); the naive counts
   are the twin's (the runner asserts equality). 4 classes: one per final (x, y) in {1,2}^2. */
#include <assert.h>
#include <pthread.h>

int x, y;

void *p(void *arg) {
    (void)arg;
    x = 1;
    y = 1;
    return 0;
}

void *q(void *arg) {
    (void)arg;
    x = 2;
    y = 2;
    return 0;
}

int main(void) {
    pthread_t tp, tq;
    pthread_create(&tp, 0, p, 0);
    pthread_create(&tq, 0, q, 0);
    pthread_join(tp, 0);
    pthread_join(tq, 0);
    int a = x, b = y;
    int d = a - b;
    assert(d < 2 && d > -2);
    return 0;
}
