/* porlab-test
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* LB with its SC assertion (a = b = 1 impossible); b comes back through pthread_join. */
#include <assert.h>
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    int b = y;
    x = 1;
    return (void *)(long)b;
}

int main(void) {
    pthread_t t;
    void *ret;
    pthread_create(&t, 0, t1, 0);
    int a = x;
    y = 1;
    pthread_join(t, &ret);
    assert(!(a == 1 && (long)ret == 1));
    return 0;
}
