/* porlab-test
   args: --disable-race-detection -DCHECK_ILP32 -- -m32 -fgnu89-inline
   verdict: violation assert
   naive: complete=2 blocked=0 errors=1
   optimal: complete=2 blocked=0
   partition: interleavings=3 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's read at
   svcomp_style.c:47 and by t1:t1's write at svcomp_style.c:39, neither happening before the
   other, at least one of them not atomic. The test is about the interleavings of these accesses
   as written, so its header turns the check off (--disable-race-detection);
   tests/python/test_bugchecks.py tests the race check. */
/* svcomp_style.c for a 32-bit target (-m32), as SV-COMP's preprocessed .i files are: long and
   pointers have 4 bytes (asserted), the rest is the same. */
#include "svcomp_style.c"
