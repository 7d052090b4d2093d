/* porlab-test
   verdict: violation use-after-free
   naive: complete=1 blocked=0 errors=1
   partition: mazurkiewicz=2 reads-from=2 rvf=2
*/
/* Use after free: main allocates a cell, hands it to t1 and frees it without joining first.
   main: *b = 7; spawn; free(b)   t1: v = *b. The free conflicts with t1's read: the read before
   the free is fine (1 complete trace), the read after it is a use after free (1 error trace). */
#include <pthread.h>
#include <stdlib.h>

void *t1(void *arg) {
    int *b = arg;
    int v = *b; // porlab: error
    return (void *)(long)v;
}

int main(void) {
    int *b = malloc(sizeof(int));
    *b = 7;
    pthread_t t;
    pthread_create(&t, 0, t1, b);
    free(b);
    return 0;
}
