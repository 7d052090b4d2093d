/* porlab-test
   verdict: safe
   naive: complete=1 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=struct_by_value
*/
/* Structs passed and returned by value between thread-local functions (copies of locals, no
   events), and a shared struct read field by field and copied as a whole (a struct assignment
   from shared memory is a copy of each field). t1 publishes a point; main reads it back. */
#include <assert.h>
#include <pthread.h>

struct point {
    int x;
    int y;
};

struct point shared;

static struct point make(int x, int y) {
    struct point p = {x, y};
    return p;
}

static struct point mirror(struct point p) {
    struct point q = {p.y, p.x};
    return q;
}

void *t1(void *arg) {
    (void)arg;
    struct point p = mirror(make(2, 1));
    shared.x = p.x;
    shared.y = p.y;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_join(t, 0);
    struct point copy = shared;
    assert(copy.x == 1 && copy.y == 2);
    return 0;
}
