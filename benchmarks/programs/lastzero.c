/* porlab-test
   args: --disable-race-detection -DN=3
   verdict: safe
   naive: complete=2175 blocked=0 errors=0
   optimal: complete=12 blocked=0
   partition: interleavings=2175 mazurkiewicz=12 reads-from=12 rvf=12
   twin: tests/c/twins.py name=lastzero n=3
   twin-classes: benchmarks/programs/lastzero.py n=3
*/
/* Data race (C11; porlab reports it by default): array[3] is accessed by main's read at line 40
   and by t3:writer's write at line 31, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* lastzero(N) (Abdulla et al., Source Sets, POPL'14), the C version of lastzero.py: thread 0
   scans array[N..0] for the last zero while threads 1..N each set array[j] = array[j-1] + 1.
   main is the scanner: it creates the writers, then scans (the scan stops at array[0] at the
   latest, which nobody writes). Its spawns add interleavings but no classes: the builder
   program, whose threads all start at once, has the same classes (twin-classes); the full twin
   has the same main. Scale with -DN=... */
#include <pthread.h>

#ifndef N
#define N 3
#endif

int array[N + 1];

void *writer(void *arg) {
    int j = (int)(long)arg;
    array[j] = array[j - 1] + 1;
    return 0;
}

int main(void) {
    pthread_t th[N + 1];
    for (int j = 1; j <= N; j++)
        pthread_create(&th[j], 0, writer, (void *)(long)j);
    int i;
    for (i = N; array[i] != 0; i--) {
    }
    return i;
}
