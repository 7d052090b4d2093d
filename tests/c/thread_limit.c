/* porlab-test
   args: --max-threads 3
   verdict: incomplete
   naive: complete=0 blocked=1 errors=0
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
*/
/* Unbounded thread creation stops at --max-threads: main (thread 0) creates threads in an endless
   loop; the workers do nothing visible. With at most 3 threads, the third pthread_create blocks
   the execution (counted as blocked, with a warning, never silently cut): 1 blocked execution
   (spawn, spawn, blocked; the workers end at once). A thread limit makes the run incomplete:
   what the program does beyond it was not explored (exit 3). */
#include <pthread.h>

void *worker(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    for (;;) {
        pthread_t t;
        pthread_create(&t, 0, worker, 0);
    }
}
