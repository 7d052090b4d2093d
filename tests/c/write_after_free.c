/* porlab-test
   verdict: violation use-after-free
   naive: complete=1 blocked=0 errors=2
   optimal: complete=1 blocked=0
   rf: complete=1 blocked=0
   rvf: complete=1 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
*/
/* The C twin of cxx_write_after_delete.cpp: t1 reads the pointer to a heap cell from a global and
   writes through it while main frees the cell. main: *b = 0; g = b; spawn; free(b) (an exchange
   of the cell)   t1: p = g; *p = 1. The read of g has one source (main's write, before the
   spawn); the write and the free conflict: the write first is fine (1 complete class, the free
   reads 1), the free first makes the write a use after free (1 error class). Naive: t1's two
   events against main's free: read, write, free (complete); read, free, write and free, read,
   write (errors). */
#include <pthread.h>
#include <stdlib.h>

int *g;

void *t1(void *arg) {
    (void)arg;
    int *p = g;
    *p = 1; // porlab: error
    return 0;
}

int main(void) {
    int *b = malloc(sizeof(int));
    *b = 0;
    g = b;
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    free(b);
    return 0;
}
