/* porlab-test
   args: -DN=3
   verdict: safe
   naive: complete=15 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=lapor_n_reads n=3
   twin-classes: examples/lapor_n_reads.py n=3
*/
/* LAPOR N-READS: N threads each read x once. Reads do not conflict: 1 class under every
   equivalence, for any N (the builder example has N! interleavings; here main's spawns add
   more, see the full twin). */
#include <pthread.h>

#ifndef N
#define N 3
#endif

int x;

void *reader(void *arg) {
    (void)arg;
    int a = x;
    return (void *)(long)a;
}

int main(void) {
    pthread_t th[N];
    for (int i = 0; i < N; i++)
        pthread_create(&th[i], 0, reader, 0);
    return 0;
}
