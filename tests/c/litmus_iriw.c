/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=630 blocked=0 errors=0
   optimal: complete=15 blocked=0
   partition: mazurkiewicz=15 reads-from=15 rvf=15
   twin: tests/c/twins.py name=litmus_iriw
   twin-classes: examples/litmus_iriw.py
*/
/* Data race (C11; porlab reports it by default): x is accessed by t1:t0's write at line 22 and
   by t3:t2's read at line 27, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* IRIW: t0: x = 1   t1: y = 1   t2: a = x; b = y   t3: c = y; d = x.
   2^4 read combinations minus (1,0,1,0): 15 classes, as examples/litmus_iriw.py. main creates
   the threads from an array of pthread_t (see litmus_wrc.c for the naive count). */
#include <pthread.h>

int x, y;

void *t0(void *arg) { (void)arg; x = 1; return 0; }
void *t1(void *arg) { (void)arg; y = 1; return 0; }

void *t2(void *arg) {
    (void)arg;
    int a = x;
    int b = y;
    return (void *)(long)(2 * a + b);
}

void *t3(void *arg) {
    (void)arg;
    int c = y;
    int d = x;
    return (void *)(long)(2 * c + d);
}

int main(void) {
    pthread_t h[4];
    void *(*body[4])(void *) = {t0, t1, t2, t3};
    for (int i = 0; i < 4; i++)
        pthread_create(&h[i], 0, body[i], 0);
    return 0;
}
