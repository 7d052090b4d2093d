/* porlab-test
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=2 blocked=0
   partition: interleavings=3 mazurkiewicz=2 reads-from=2 rvf=2
*/
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
