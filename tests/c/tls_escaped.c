/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=3 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* Data race (C11; porlab reports it by default): slot@main is accessed by main's write at line
   37 and by t1:reader's read at line 27, neither happening before the other, at least one of
   them not atomic. The test is about the interleavings of these accesses as written, so its
   header turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests
   the race check. */
/* A thread-local whose address is handed to another thread stays shared memory: main passes
   &slot (its copy, initially 1) to the reader and then writes 2 to it; the reader reads main's
   copy and writes its own (a copy per thread, each starting at 1). Both copies are shared
   objects (the address escapes), so these are events. main: spawn, write slot@main, join, read
   slot@main; reader: read slot@main, write slot@t1. The reader's two events fall between spawn
   and join, around main's write: 3 interleavings; the read before or after the write: 2
   classes (reads 1 or 2). */
#include <assert.h>
#include <pthread.h>

_Thread_local int slot = 1;

void *reader(void *arg) {
    int *p = arg;
    int v = *p;
    slot = 5;
    assert(v == 1 || v == 2);
    return (void *)(long)v;
}

int main(void) {
    pthread_t t;
    int *p = &slot;
    pthread_create(&t, 0, reader, p);
    *p = 2;
    pthread_join(t, 0);
    assert(slot == 2);
    return 0;
}
