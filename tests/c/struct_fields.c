/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
   twin: tests/c/twins.py name=struct_fields
*/
/* Data race (C11; porlab reports it by default): s.b is accessed by main's write at line 38 and
   by t1:t1's read at line 30, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Struct fields are separate locations: t1 writes s.a, main writes s.b, each then reads the
   other's field (an SB on two fields of one struct), through a pointer to the struct and a
   pointer to a field. The final check reads both fields after the join. */
#include <assert.h>
#include <pthread.h>

struct pair {
    int a;
    long b;
};

struct pair s;

void *t1(void *arg) {
    struct pair *p = arg;
    p->a = 1;
    long seen = p->b;
    return (void *)seen;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, &s);
    long *pb = &s.b;
    *pb = 2;
    int seen = s.a;
    void *ret;
    pthread_join(t, &ret);
    assert(seen == 1 || (long)ret == 2);
    assert(s.a + s.b == 3);
    return 0;
}
