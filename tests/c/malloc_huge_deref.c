/* porlab-test
   verdict: violation null-dereference
   naive: complete=0 blocked=0 errors=1
*/
/* malloc_huge.c's misuse: the program does not check, and its own store through the NULL that
   malloc returned for an impossible size faults as a null dereference (one execution). */
#include <stdlib.h>

int main(void) {
    long n = -1;
    int *p = malloc((size_t)n);
    p[0] = 1; // porlab: error
    return 0;
}
