/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   naive: complete=10 blocked=0 errors=9
   optimal: complete=2 blocked=0
   partition: interleavings=19 mazurkiewicz=4 reads-from=4 rvf=4
   twin: tests/c/twins.py name=bitfield_race
*/
/* Data race (C11; porlab reports it by default): f.a is accessed by t1:set_a's read at line 29
   and by t2:set_b's write at line 35, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Two threads set two different bit-fields of one struct, without a lock. In C a bit-field store
   is a read-modify-write of the storage unit the fields share, so the two updates race on that
   unit and one can be lost: main asserts both flags after joining. */
#include <assert.h>
#include <pthread.h>

struct flags {
    unsigned a : 1;
    unsigned b : 1;
};

struct flags f;

void *set_a(void *arg) {
    (void)arg;
    f.a = 1;
    return 0;
}

void *set_b(void *arg) {
    (void)arg;
    f.b = 1;
    return 0;
}

int main(void) {
    pthread_t ta, tb;
    pthread_create(&ta, 0, set_a, 0);
    pthread_create(&tb, 0, set_b, 0);
    pthread_join(ta, 0);
    pthread_join(tb, 0);
    assert(f.a == 1 && f.b == 1); // porlab: error
    return 0;
}
