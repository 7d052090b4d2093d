/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=2 blocked=0
*/
/* Data race (C11; porlab reports it by default): shared is accessed by main's read at line 54
   and by t1:t's write at line 34, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Pointers converted to integers keep distinct low bits, as a real allocator lays objects out:
   a pointer truncated to an int is non-zero and differs between objects (globals, heap blocks,
   escaped stack variables), and malloc's results are 16-byte aligned (aligned_alloc's and
   posix_memalign's to what they ask). So assume() on a truncated pointer passes, and hash tables
   keyed by addresses see different keys. Events: main spawns, stores to `local` (an escaped
   stack variable: its address becomes an integer), reads `shared`, joins (and ends the frame of
   `local`); the thread's write of `shared` falls in one of the 3 gaps before the join: 3
   interleavings, 2 classes (main reads `shared` before or after the write). */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

extern void __VERIFIER_assume(int);

int g1, g2[3];
int *shared;

static int low(const void *p) { return (int)(intptr_t)p; }

void *t(void *arg) {
    (void)arg;
    shared = malloc(sizeof(int));
    return 0;
}

int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    int local = 0;
    int *esc = &local;  /* converted to an integer below: a shared stack object */
    char *a = malloc(1), *b = malloc(1), *c = malloc(100);
    __VERIFIER_assume(low(a));
    assert(low(a) != 0 && low(b) != 0 && low(&g1) != 0 && low(esc) != 0);
    assert(low(a) != low(b) && low(a) != low(c) && low(b) != low(c));
    assert(low(&g1) != low(&g2[0]) && low(&g2[1]) - low(&g2[0]) == sizeof(int));
    assert(low(esc) != low(a) && low(esc) != low(&g1));
    assert(((uintptr_t)a & 15) == 0 && ((uintptr_t)b & 15) == 0 && ((uintptr_t)c & 15) == 0);
    assert(low(c + 99) - low(c) == 99);
    void *big = aligned_alloc(256, 512), *pm = 0;
    assert(((uintptr_t)big & 255) == 0);
    assert(posix_memalign(&pm, 4096, 8) == 0 && ((uintptr_t)pm & 4095) == 0);
    int *s = shared;
    if (s) assert(low(s) != 0 && low(s) != low(a) && ((uintptr_t)s & 15) == 0);
    pthread_join(th, 0);
    return 0;
}
