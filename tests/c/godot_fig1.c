/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=1 blocked=0 errors=0
   optimal: complete=1 blocked=0
   optimal-await: complete=1 blocked=0
   partition: mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=godot_fig1 mode=await
*/
/* Data race (C11; porlab reports it by default): x[1] is accessed by main's read at line 44 and
   by t1:q's write at line 46, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Godot Figure 1: two threads sort x = {3, 2, 1} with a flag y for the hand-off.
     p: if (x0 > x1) swap; y = 1; wait y == 2; if (x0 > x1) swap
     q: wait y == 1; if (x1 > x2) swap; y = 2
   main is p. The waits are awaits (default, -DMODE=0): 1 complete trace, 0 blocked; with
   -DMODE=1 they read y and assume the value (godot_fig1_assume.c): 1 + 2. The twin is
   examples/sortnet.py's build3(mode). */
#include <pthread.h>

#ifndef MODE
#define MODE 0
#endif

void __VERIFIER_assume(int cond);
int __VERIFIER_load_await_i32(volatile void *addr, int cond, int operand);

int x[3] = {3, 2, 1};
int y;

static void wait_for(int v) {
#if MODE == 0
    __VERIFIER_load_await_i32(&y, 2 /* EQ */, v);
#else
    int a = y;
    __VERIFIER_assume(a == v);
#endif
}

static void compare_swap(int i, int j) {
    int a = x[i];
    int b = x[j];
    if (a > b) {
        x[i] = b;
        x[j] = a;
    }
}

void *q(void *arg) {
    (void)arg;
    wait_for(1);
    compare_swap(1, 2);
    y = 2;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, q, 0);
    compare_swap(0, 1);
    y = 1;
    wait_for(2);
    compare_swap(0, 1);
    return 0;
}
