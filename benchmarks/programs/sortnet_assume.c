/* porlab-test
   args: -DN=2
   verdict: safe
   naive: complete=115830 blocked=19448 errors=0
   optimal: complete=1 blocked=2
   optimal-await: complete=1 blocked=2
   partition: mazurkiewicz=3 reads-from=3 rvf=3
   twin: examples/sortnet.py n=2 mode=assume
*/
/* sortnet.c with MODE=1: every wait reads the version counter and assumes it is the expected one
   (what Godot's PLP makes of a spinloop), so reading too early blocks the thread for good: 1
   complete + 2 blocked classes for N = 2, as the builder twin. */
#define MODE 1
#include "sortnet.c"
