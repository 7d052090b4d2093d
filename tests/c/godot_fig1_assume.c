/* porlab-test
   verdict: safe
   naive: complete=1 blocked=11 errors=0
   optimal: complete=1 blocked=2
   optimal-await: complete=1 blocked=2
   partition: mazurkiewicz=3 reads-from=3 rvf=3
   twin: tests/c/twins.py name=godot_fig1 mode=assume
*/
/* godot_fig1.c with its waits as assumes (what PLP makes of spinloops): a thread that reads the
   flag too early blocks for good: 1 complete + 2 blocked classes (ALGORITHMS.md §1.6). */
#define MODE 1
#include "godot_fig1.c"
