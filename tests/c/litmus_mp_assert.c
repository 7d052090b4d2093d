/* porlab-test
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* MP with its SC assertion in the reader: seeing the flag (a = 1) implies seeing the data. */
#include <assert.h>
#include <pthread.h>

int data, flag;

void *reader(void *arg) {
    (void)arg;
    int a = flag;
    int b = data;
    assert(!(a == 1 && b == 0));
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    data = 1;
    flag = 1;
    return 0;
}
