/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=70 blocked=0 errors=0
   optimal: complete=7 blocked=0
   partition: mazurkiewicz=7 reads-from=7 rvf=7
   twin: tests/c/twins.py name=litmus_wrc
   twin-classes: examples/litmus_wrc.py
*/
/* Data race (C11; porlab reports it by default): x is accessed by t1:t0's write at line 26 and
   by t2:t1's read at line 32, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* WRC: t0: x = 1   t1: a = x; y = 1   t2: b = y; c = x.
   main spawns the three threads. Each read sees 0 or the one write: 2^3 = 8 combinations minus
   (a, b, c) = (1, 1, 0): 7 classes, as examples/litmus_wrc.py (twin-classes). main's spawns add
   interleavings (threads start while main still spawns), not classes: the naive count is that of
   the builder twin with the same main. */
#include <pthread.h>

int x, y;

void *t0(void *arg) {
    (void)arg;
    x = 1;
    return 0;
}

void *t1(void *arg) {
    (void)arg;
    int a = x;
    y = 1;
    return (void *)(long)a;
}

void *t2(void *arg) {
    (void)arg;
    int b = y;
    int c = x;
    return (void *)(long)(2 * b + c);
}

int main(void) {
    pthread_t h0, h1, h2;
    pthread_create(&h0, 0, t0, 0);
    pthread_create(&h1, 0, t1, 0);
    pthread_create(&h2, 0, t2, 0);
    return 0;
}
