/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=3 mazurkiewicz=2 reads-from=2 rvf=2
   twin: tests/c/twins.py name=uintptr_handoff
*/
/* Data race (C11; porlab reports it by default): malloc@main#0 is accessed by main's write at
   line 38 and by t1:reader's read at line 29, neither happening before the other, at least one
   of them not atomic. The test is about the interleavings of these accesses as written, so its
   header turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests
   the race check. */
/* A pointer published as an integer: main stores the address of a heap cell, cast to uintptr_t,
   in a shared variable (after filling the cell); the reader loads it, casts it back and reads
   through it when it is not 0. Pointer values must survive the round trip through memory. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

uintptr_t slot;

void *reader(void *arg) {
    (void)arg;
    uintptr_t u = slot;
    if (u != 0) {
        int *p = (int *)u;
        assert(*p == 42);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    int *cell = malloc(sizeof *cell);
    *cell = 42;
    slot = (uintptr_t)cell;
    return 0;
}
