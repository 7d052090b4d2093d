/* porlab-test
   args: --disable-race-detection -DN=2
   verdict: safe
   naive: complete=115830 blocked=19448 errors=0
   optimal: complete=1 blocked=2
   optimal-await: complete=1 blocked=2
   partition: mazurkiewicz=3 reads-from=3 rvf=3
   twin: examples/sortnet.py n=2 mode=assume
*/
/* Data race (C11; porlab reports it by default): v[2] is accessed by main's read at
   sortnet.c:53 and by t1:worker's write at sortnet.c:88, neither happening before the other, at
   least one of them not atomic. The test is about the interleavings of these accesses as
   written, so its header turns the check off (--disable-race-detection);
   tests/python/test_bugchecks.py tests the race check. */
/* sortnet.c with MODE=1: every wait reads the version counter and assumes it is the expected one
   (what Godot's PLP makes of a spinloop), so reading too early blocks the thread for good: 1
   complete + 2 blocked classes for N = 2, as the builder twin. */
#define MODE 1
#include "sortnet.c"
