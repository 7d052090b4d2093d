/* porlab-test
   verdict: safe
   naive: complete=923 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: interleavings=923 mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=struct_array
*/
/* An initialised global array of structs: each of two workers updates the fields of its own
   element (no conflict between them) and reads the other's `id` (never written: no conflict
   either); main checks the totals after the joins. 1 class. */
#include <assert.h>
#include <pthread.h>

struct account {
    int id;
    int balance;
    int ops;
};

struct account acc[2] = {{10, 100, 0}, {11, 50, 0}};

void *worker(void *arg) {
    int i = (int)(long)arg;
    struct account *a = &acc[i];
    a->balance = a->balance + 5;
    a->ops = a->ops + 1;
    return (void *)(long)acc[1 - i].id;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, (void *)(long)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    assert(acc[0].balance + acc[1].balance == 160);
    return 0;
}
