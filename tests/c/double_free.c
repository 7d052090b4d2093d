/* porlab-test
   verdict: violation double-free
   naive: complete=0 blocked=0 errors=2
   partition: mazurkiewicz=2 reads-from=2 rvf=2
*/
/* Double free: main and t1 both free the same block; whichever frees second faults. main: spawn;
   free(b)   t1: free(b). 2 orders, both errors (each its own class: the frees conflict). */
#include <pthread.h>
#include <stdlib.h>

void *t1(void *arg) {
    free(arg); // porlab: error
    return 0;
}

int main(void) {
    int *b = malloc(sizeof(int));
    pthread_t t;
    pthread_create(&t, 0, t1, b);
    free(b); // porlab: error
    return 0;
}
