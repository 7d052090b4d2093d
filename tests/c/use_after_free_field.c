/* porlab-test
   verdict: violation use-after-free
   naive: complete=2 blocked=0 errors=1
   optimal: complete=1 blocked=0
   partition: interleavings=3 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* use_after_free.c with the access on the second field of a struct (offset 4, not 0): main
   allocates a pair, hands it to t1 and frees it; t1 reads p->second. Before the free the read is
   fine, after it the read is a use after free: both orders must be explored by every explorer.
   The free writes every location of the block (p->first, then p->second; the block is freed at
   the last write), so t1's read has 3 places: before both writes or between them (2 complete
   interleavings, one class: the read does not conflict with the write of p->first) or after
   both (1 error). */
#include <pthread.h>
#include <stdlib.h>

struct pair {
    int first;
    int second;
};

void *t1(void *arg) {
    struct pair *p = arg;
    int v = p->second; // porlab: error
    return (void *)(long)v;
}

int main(void) {
    struct pair *p = malloc(sizeof *p);
    p->first = 1;
    p->second = 2;
    pthread_t t;
    pthread_create(&t, 0, t1, p);
    free(p);
    return 0;
}
