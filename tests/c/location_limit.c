/* porlab-test
   args: --max-locations 1
   verdict: incomplete
   naive: complete=0 blocked=1 errors=0
*/
/* Reaching --max-locations in the middle of a run is a limit, not bad input: the execution that
   needs one more shared heap/stack location is blocked there (block cause location-limit, with
   a warning to raise --max-locations), and the run goes on, incomplete (exit 3). Here the second block's first store
   needs a second location: the only execution is blocked. */
#include <stdlib.h>

int main(void) {
    int *a = malloc(sizeof(int)), *b = malloc(sizeof(int));
    *a = 1;
    *b = 2;
    return *a + *b;
}
