/* porlab-test
   args: --deadlock-blocked
   verdict: safe
   naive: complete=4 blocked=2 errors=0
   optimal: complete=2 blocked=1
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
   twin: tests/c/twins.py name=deadlock_abba
*/
/* deadlock_abba.c with --deadlock-blocked: the deadlocks are blocked executions, not errors, and
   the counts are exactly the builder twin's (which counts a deadlock as blocked). */
#include "deadlock_abba.c"
