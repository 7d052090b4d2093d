/* porlab-test
   verdict: safe
   naive: complete=251 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: interleavings=251 mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=global_ptr_table
*/
/* A global table of pointers to globals, initialised statically (&a, &b), and a nested struct
   with an array inside: threads write through the table and into the nested array; main reads
   all of it after the joins. Exercises constant pointers in initialisers and nested GEPs. */
#include <assert.h>
#include <pthread.h>

int a, b;
int *table[2] = {&a, &b};

struct inner {
    int tag;
    int vals[2];
};
struct outer {
    int head;
    struct inner in[2];
} nest = {1, {{2, {3, 4}}, {5, {6, 7}}}};

void *worker(void *arg) {
    int i = (int)(long)arg;
    *table[i] = i + 10;
    nest.in[i].vals[1] = nest.in[i].tag * 10;
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, (void *)(long)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    assert(a == 10 && b == 11);
    assert(nest.in[0].vals[1] == 20 && nest.in[1].vals[1] == 50);
    assert(nest.head == 1 && nest.in[1].vals[0] == 6);
    return 0;
}
