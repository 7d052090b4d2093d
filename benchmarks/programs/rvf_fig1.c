/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=1575 blocked=0 errors=0
   optimal: complete=98 blocked=0
   partition: mazurkiewicz=98 reads-from=9 rvf=1
   twin: tests/c/twins.py name=rvf_fig1
   twin-classes: examples/rvf_fig1.py
*/
/* Data race (C11; porlab reports it by default): x is accessed by t1:thr1's write at line 27
   and by t2:thr2's write at line 34, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* RVF-SMC paper, Figure 1: three threads write 1 to x and y; two of them read back.
     thr1: x = 1; y = 1     thr2: x = 1; y = 1; a = x     thr3: x = 1; y = 1; b = y
   98 Mazurkiewicz classes, 9 reads-from classes, 1 RVF class (every read sees 1). main spawns
   the three threads: its spawns add interleavings (the builder program examples/rvf_fig1.py has
   7!/(2!3!2!) = 560, without main) but no classes (twin-classes); tests/c/twins.py has the same
   main for the naive count. */
#include <pthread.h>

int x, y;

void *thr1(void *arg) {
    (void)arg;
    x = 1;
    y = 1;
    return 0;
}

void *thr2(void *arg) {
    (void)arg;
    x = 1;
    y = 1;
    int a = x;
    return (void *)(long)a;
}

void *thr3(void *arg) {
    (void)arg;
    x = 1;
    y = 1;
    int b = y;
    return (void *)(long)b;
}

int main(void) {
    pthread_t t1, t2, t3;
    pthread_create(&t1, 0, thr1, 0);
    pthread_create(&t2, 0, thr2, 0);
    pthread_create(&t3, 0, thr3, 0);
    return 0;
}
