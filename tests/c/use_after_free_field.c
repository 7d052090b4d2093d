/* porlab-test
   verdict: violation use-after-free
   naive: complete=1 blocked=0 errors=1
   optimal: complete=1 blocked=0
   partition: interleavings=2 mazurkiewicz=2 reads-from=2 rvf=2
*/
/* use_after_free.c with the access on the second field of a struct (offset 4, not 0): main
   allocates a pair, hands it to t1 and frees it; t1 reads p->second. Before the free the read is
   fine (1 complete trace), after it the read is a use after free (1 error): both orders must be
   explored by every explorer. */
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
