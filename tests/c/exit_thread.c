/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=3 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's read at line 42 and by
   t1:t1's write at line 27, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* exit() and abort() end the calling thread only (docs/supported-c.md): t1 writes x = 1 and
   calls exit, so its x = 2 never runs; t2 calls abort before any access. main reads x, joins
   both and checks. By hand: main: spawn t1; spawn t2; read x; join t1; join t2; read x. t2 has
   no visible event (it ends with its spawn). t1's only event, x = 1, goes before main's spawn
   of t2, between that spawn and main's read, or after the read: 3 interleavings; main's first
   read sees 1 or 0: 2 classes. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int x;

void *t1(void *arg) {
    (void)arg;
    x = 1;
    exit(0);
    x = 2;
    return 0;
}

void *t2(void *arg) {
    (void)arg;
    abort();
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    int seen = x;
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 1);
    return seen;
}
