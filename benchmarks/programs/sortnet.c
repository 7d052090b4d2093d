/* porlab-test
   args: --disable-race-detection -DN=2
   verdict: safe
   naive: complete=115830 blocked=0 errors=0
   optimal: complete=1 blocked=0
   optimal-await: complete=1 blocked=0
   partition: mazurkiewicz=1 reads-from=1 rvf=1
   twin: examples/sortnet.py n=2 mode=await
*/
/* Data race (C11; porlab reports it by default): v[2] is accessed by main's await at line 47
   and by t1:worker's write at line 88, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Concurrent sorting network (Godot Figure 1, sortnet(n) of Table I), the C version of
   examples/sortnet.py: N threads sort 2N elements (initially 2N, ..., 1) with Batcher's odd-even
   merge sort network. Thread k owns elements 2k and 2k+1 and runs the comparators (i, j) with i
   owned by it, in network order. Before its c-th comparator on element i a thread waits until
   v[i] == c, afterwards it sets v[i] = c + 1. At the end thread 0 waits for every element's final
   version and asserts the array is sorted.
   -DMODE=0 (default) waits with an await (__VERIFIER_load_await_i32(&v[i], EQ, c)): 1 complete
   trace with Optimal-DPOR-Await for every N. -DMODE=1 reads v[i] and assumes it equals c (what
   Godot's PLP makes of the spinloop): blocked traces appear, 1+2 for N = 2.
   main is thread 0: it writes the initial array, creates threads 1..N-1, then runs its own part
   (for N = 2 the events are then exactly those of the builder twin: main's writes and its one
   spawn come before anything else can run). The
   comparator list is recomputed by every thread in local variables (invisible events). */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 2
#endif
#ifndef MODE
#define MODE 0
#endif
#define SIZE (2 * N)

void __VERIFIER_assume(int);
int __VERIFIER_load_await_i32(volatile int *addr, int cond, int operand);

int x[SIZE];
int v[SIZE];

static void wait_version(int i, int c) {
#if MODE == 0
    __VERIFIER_load_await_i32(&v[i], 2 /* EQ */, c);
#elif MODE == 2
    while (v[i] != c) {
        /* spin (Godot Fig. 1: do b = y; while (b != 2)); --loops=plp-await makes it an await */
    }
#else
    int a = v[i];
    __VERIFIER_assume(a == c);
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

/* Batcher's odd-even merge sort network for SIZE elements (the network of the next power of two
   without the comparators that touch padding), exactly as examples/sortnet.py enumerates it. */
static void run(int me) {
    int done[SIZE];
    for (int e = 0; e < SIZE; e++)
        done[e] = 0;
    int n = 1;
    while (n < SIZE)
        n *= 2;
    for (int p = 1; p < n; p *= 2)
        for (int k = p; k >= 1; k /= 2)
            for (int j = k % p; j <= n - 1 - k; j += 2 * k) {
                int lim = k < n - j - k ? k : n - j - k;
                for (int i = 0; i < lim; i++) {
                    int a = i + j, b = i + j + k;
                    if (a / (2 * p) != b / (2 * p) || b >= SIZE)
                        continue;
                    if (a / 2 == me) {
                        wait_version(a, done[a]);
                        wait_version(b, done[b]);
                        compare_swap(a, b);
                        v[a] = done[a] + 1;
                        v[b] = done[b] + 1;
                    }
                    done[a]++;
                    done[b]++;
                }
            }
    if (me == 0) {
        int vals[SIZE];
        for (int e = 0; e < SIZE; e++)
            wait_version(e, done[e]);
        for (int e = 0; e < SIZE; e++)
            vals[e] = x[e];
        for (int e = 0; e + 1 < SIZE; e++)
            assert(vals[e] <= vals[e + 1]);
    }
}

void *worker(void *arg) {
    run((int)(long)arg);
    return 0;
}

int main(void) {
    pthread_t th[N];
    for (int e = 0; e < SIZE; e++)
        x[e] = SIZE - e;
    for (int k = 1; k < N; k++)
        pthread_create(&th[k], 0, worker, (void *)(long)k);
    run(0);
    return 0;
}
