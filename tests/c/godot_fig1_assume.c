/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=1 blocked=11 errors=0
   optimal: complete=1 blocked=2
   optimal-await: complete=1 blocked=2
   partition: mazurkiewicz=3 reads-from=3 rvf=3
   twin: tests/c/twins.py name=godot_fig1 mode=assume
*/
/* Data race (C11; porlab reports it by default): x[1] is accessed by main's read at
   godot_fig1.c:44 and by t1:q's write at godot_fig1.c:46, neither happening before the other,
   at least one of them not atomic. The test is about the interleavings of these accesses as
   written, so its header turns the check off (--disable-race-detection);
   tests/python/test_bugchecks.py tests the race check. */
/* godot_fig1.c with its waits as assumes (what PLP makes of spinloops): a thread that reads the
   flag too early blocks for good: 1 complete + 2 blocked classes (ALGORITHMS.md §1.6). */
#define MODE 1
#include "godot_fig1.c"
