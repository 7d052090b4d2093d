/* porlab-test
   verdict: safe
   naive: complete=5 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: interleavings=5 mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=thread_tree
*/
/* Threads creating threads: main creates A, A creates B and C, each leaf writes its own slot of
   a global array and A sums them after joining its children; main joins A and checks. */
#include <assert.h>
#include <pthread.h>

int leaf[2];
int total;

void *leaf_fn(void *arg) {
    int i = (int)(long)arg;
    leaf[i] = i + 1;
    return 0;
}

void *inner(void *arg) {
    (void)arg;
    pthread_t b, c;
    pthread_create(&b, 0, leaf_fn, (void *)0L);
    pthread_create(&c, 0, leaf_fn, (void *)1L);
    pthread_join(b, 0);
    pthread_join(c, 0);
    total = leaf[0] + leaf[1];
    return 0;
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, inner, 0);
    pthread_join(a, 0);
    assert(total == 3);
    return 0;
}
