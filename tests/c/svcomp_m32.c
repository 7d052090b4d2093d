/* porlab-test
   args: -DCHECK_ILP32 -- -m32 -fgnu89-inline
   verdict: violation assert
   naive: complete=2 blocked=0 errors=1
   optimal: complete=2 blocked=0
   partition: interleavings=3 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* svcomp_style.c for a 32-bit target (-m32), as SV-COMP's preprocessed .i files are: long and
   pointers have 4 bytes (asserted), the rest is the same. */
#include "svcomp_style.c"
