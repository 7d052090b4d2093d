/* porlab-test
   args: --disable-race-detection -- -fgnu89-inline
   verdict: violation assert
   naive: complete=2 blocked=0 errors=1
   optimal: complete=2 blocked=0
   partition: interleavings=3 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's read at line 47 and by
   t1:t1's write at line 39, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* An SV-COMP style program: reach_error defined in the file through __assert_fail,
   __VERIFIER_assert, pthread declared by hand, and a gnu89 `inline` function (clang flag
   -fgnu89-inline after --). svcomp_m32.c compiles it for 32 bits, as SV-COMP's .i files are.
   t1: x = 1; x = 2   main: spawn; v = x; __VERIFIER_assert(v != 1). main's read goes before,
   between or after t1's writes (3 interleavings, 3 classes); between them it sees 1: 1 error. */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "svcomp_style.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) {
    if (!(cond)) {
    ERROR: {
        reach_error(); // porlab: error
        abort();
    }
    }
}

typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);

inline int twice(int v) { return 2 * v; }

long x;

void *t1(void *arg) {
    x = 1;
    x = twice(1);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    long v = x;
#ifdef CHECK_ILP32
    __VERIFIER_assert(sizeof(long) == 4 && sizeof(void *) == 4);
#endif
    __VERIFIER_assert(v != 1);
    return 0;
}
