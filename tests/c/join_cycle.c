/* porlab-test
   verdict: violation deadlock
   naive: complete=0 blocked=0 errors=1
*/
/* A join cycle through pthread_self: main publishes its own handle, creates t1 and joins it;
   t1 reads main's handle and joins main. main: write self; spawn; join t1   t1: read self;
   join main. After the spawn only t1 can move (main's join waits for t1), then both joins wait:
   1 execution, a deadlock. */
#include <pthread.h>

pthread_t main_id;

void *t1(void *arg) {
    (void)arg;
    pthread_t m = main_id;
    pthread_join(m, 0);
    return 0;
}

int main(void) {
    main_id = pthread_self();
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_join(t, 0);
    return 0;
}
