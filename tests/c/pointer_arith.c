/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=251 blocked=0 errors=0
   optimal: complete=5 blocked=0
   partition: interleavings=251 mazurkiewicz=5 reads-from=5 rvf=5
   twin: tests/c/twins.py name=pointer_arith
*/
/* Data race (C11; porlab reports it by default): a[0] is accessed by t1:writer's write at line
   24 and by t2:reader's read at line 33, neither happening before the other, at least one of
   them not atomic. The test is about the interleavings of these accesses as written, so its
   header turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests
   the race check. */
/* Pointer arithmetic over a global array: the writer fills a[0..3] through a moving pointer,
   the reader scans it backwards through a pointer computed from the end and counts non-zero
   cells; main joins both. Every cell is its own location. */
#include <pthread.h>

int a[4];

void *writer(void *arg) {
    (void)arg;
    for (int *p = a; p != a + 4; ++p)
        *p = 1;
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    int n = 0;
    for (int *p = a + 4; p != a;) {
        p -= 1;
        n += *p != 0;
    }
    return (void *)(long)n;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
