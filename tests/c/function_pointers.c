/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=251 blocked=0 errors=0
   optimal: complete=34 blocked=0
   partition: interleavings=251 mazurkiewicz=34 reads-from=26 rvf=26
   twin: tests/c/twins.py name=function_pointers
*/
/* Data race (C11; porlab reports it by default): x is accessed by t1:t0's read at line 21 and
   by t2:t1's write at line 22, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Threads run operations taken from a (thread-local) table of function pointers, and the thread
   functions themselves come from a table: t0 applies inc then dbl to x, t1 applies dbl then inc,
   each operation a load and a store of x; main joins both and reads x. */
#include <pthread.h>

int x = 1;

static void inc(int *p) { *p = *p + 1; }
static void dbl(int *p) { *p = *p * 2; }

void *t0(void *arg) {
    (void)arg;
    void (*ops[2])(int *) = {inc, dbl};
    ops[0](&x);
    ops[1](&x);
    return 0;
}

void *t1(void *arg) {
    (void)arg;
    void (*ops[2])(int *) = {inc, dbl};
    void (*f)(int *) = ops[1];
    f(&x);
    f = ops[0];
    f(&x);
    return 0;
}

int main(void) {
    void *(*bodies[2])(void *) = {t0, t1};
    pthread_t h[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&h[i], 0, bodies[i], 0);
    for (int i = 0; i < 2; i++)
        pthread_join(h[i], 0);
    return x;
}
