/* sortnet.c with MODE=2: every wait is a polling loop `while (v[i] != c) {}` as in Godot Fig. 1.
   Under --loops=plp-await the loop becomes __VERIFIER_load_await_i32(&v[i], EQ, c) and
   Optimal-DPOR-Await explores 1 complete execution for every N (Godot Table I, PLP+Await);
   --loops=plp gives 1 complete + the assume-blocked ones. The comparator loops need
   --unroll >= 2N + 1. */
#define MODE 2
#include "../sortnet.c"
