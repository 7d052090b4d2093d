/* porlab-test
   verdict: violation invalid-pointer
   naive: complete=5 blocked=0 errors=9
   optimal: complete=1 blocked=0
   partition: interleavings=14 mazurkiewicz=7 reads-from=7 rvf=7
*/
/* pthread_exit ends every frame of the thread, as returns would: the escaped stack variables of
   each frame die with the same frame-end events, the innermost frame first (dead_frame.c has the
   return). main: local = 0, then inner(&local): mine = 0, spawn a(&mine), spawn b(&local), then
   pthread_exit kills mine, then local. Each worker writes through its pointer: fine before the
   variable dies, an invalid access after. Complete executions: a writes before mine dies and b
   before local dies: a before b's spawn (b then before or after the end of mine: 2), or a after
   b's spawn and before the end of mine (b before a, after a, or after the end of mine: 3), so 5;
   1 Mazurkiewicz class (each write before its variable's end). HOW selects the way out:
   0 pthread_exit (here), 1 abort (exit_frame_abort.c), 2 exit. */
#include <pthread.h>
#include <stdlib.h>

#ifndef HOW
#define HOW 0
#endif

static void *worker(void *arg) {
    int *p = arg;
    *p = 1; // porlab: error
    return 0;
}

static void inner(int *outer) {
    int mine = 0;
    pthread_t a, b;
    pthread_create(&a, 0, worker, &mine);
    pthread_create(&b, 0, worker, outer);
#if HOW == 1
    abort();
#elif HOW == 2
    exit(0);
#else
    pthread_exit(0);
#endif
}

int main(void) {
    int local = 0;
    inner(&local);
    return 0;
}
