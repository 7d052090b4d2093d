/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   naive: complete=5 blocked=0 errors=1
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=4 reads-from=4 rvf=4
*/
/* Data race (C11; porlab reports it by default): g[0] is accessed by main's read at line 42 and
   by t1:writer's write at line 30, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* memcpy from shared memory is one read event per location of the source (then, when the
   destination is shared too, a write event per location; a private destination is written
   locally). The writer sets g[0] then g[1]; main copies g into a local array while it runs: the
   copy reads g[0], then g[1]. By hand: main's reads r0 r1 interleave with the writes w0 w1 in 6
   ways; 4 Mazurkiewicz classes by the order of (r0, w0) and (r1, w1), with the copies (0,0),
   (0,1), (1,0), (1,1). Only (0,1) (r0 w0 w1 r1) breaks l[0] >= l[1]: 1 error. After the join
   main copies g into a malloc'd block (read g[i], write h[i]) and checks it, adding no
   interleavings. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int g[2];

void *writer(void *arg) {
    (void)arg;
    g[0] = 1;
    g[1] = 1;
    return 0;
}

/* the array's address goes to a call, so SROA cannot turn the memcpy into plain loads */
static int ordered(const int *l) { return l[0] >= l[1]; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int l[2];
    memcpy(l, g, sizeof g);
    assert(ordered(l)); // porlab: error
    pthread_join(t, 0);
    int *h = malloc(sizeof g);
    memcpy(h, g, sizeof g);
    assert(h[0] == 1 && h[1] == 1);
    free(h);
    return 0;
}
