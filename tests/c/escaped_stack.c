/* porlab-test
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
   twin: tests/c/twins.py name=escaped_stack
*/
/* A stack variable of main whose address is given to a thread is shared memory: main and the
   thread race on it (an SB between main's local flag and a global). The thread's own locals stay
   invisible. */
#include <assert.h>
#include <pthread.h>

int g;

void *t1(void *arg) {
    int *shared = arg;
    int local = 5;
    local = local * 2;
    *shared = local;
    int seen = g;
    return (void *)(long)seen;
}

int main(void) {
    int flag = 0;
    pthread_t t;
    pthread_create(&t, 0, t1, &flag);
    g = 1;
    int seen = flag;
    void *ret;
    pthread_join(t, &ret);
    assert(seen == 10 || (long)ret == 1);
    return 0;
}
