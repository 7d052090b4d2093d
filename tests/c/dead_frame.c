/* porlab-test
   verdict: violation fault
   naive: complete=1 blocked=0 errors=1
*/
/* A thread keeps the address of a stack variable of a function that has returned: start()
   creates the worker with &local and returns, then the worker writes through the pointer. If the
   worker writes before start's frame is gone it is fine (1 complete execution), after it is an
   invalid access to a dead frame (1 error). By hand: main: start() { local = 0; spawn } returns,
   main ends; worker: *p = 1 before or after the frame ends. */
#include <pthread.h>

static void *worker(void *arg) {
    int *p = arg;
    *p = 1; // porlab: error
    return 0;
}

static pthread_t start(void) {
    int local = 0;
    pthread_t t;
    pthread_create(&t, 0, worker, &local);
    return t;
}

int main(void) {
    start();
    return 0;
}
