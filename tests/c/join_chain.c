/* porlab-test
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: interleavings=3 mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=join_chain
*/
/* Threads join each other: main creates A, whose handle pthread_create stores in a global (a
   write event of main, before the spawn), then B; B reads the handle, joins A and reads A's result, main joins
   B only. B always sees A's write (join is a happens-before edge): 1 class. */
#include <assert.h>
#include <pthread.h>

pthread_t ha;
int a_result, b_result;

void *thread_a(void *arg) {
    (void)arg;
    a_result = 5;
    return 0;
}

void *thread_b(void *arg) {
    (void)arg;
    pthread_join(ha, 0);
    b_result = a_result + 1;
    return 0;
}

int main(void) {
    pthread_t hb;
    pthread_create(&ha, 0, thread_a, 0);
    pthread_create(&hb, 0, thread_b, 0);
    pthread_join(hb, 0);
    assert(b_result == 6);
    return 0;
}
