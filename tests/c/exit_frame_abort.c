/* porlab-test
   verdict: violation invalid-pointer
   naive: complete=5 blocked=0 errors=9
   optimal: complete=1 blocked=0
   partition: interleavings=14 mazurkiewicz=7 reads-from=7 rvf=7
*/
/* exit_frame.c ending its thread with abort() instead of pthread_exit: the same frame ends,
   innermost first, and the same counts. */
#define HOW 1
#include "exit_frame.c"
