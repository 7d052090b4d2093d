/* porlab-test
   verdict: safe
   naive: complete=70 blocked=0 errors=0
   optimal: complete=8 blocked=0
   optimal-await+ifaa: complete=8 blocked=0
   partition: interleavings=70 mazurkiewicz=8 mazurkiewicz-ifaa=8 reads-from=8 rvf=8
*/
/* atomicrmw nand, umax, umin, max and min (clang's __atomic_fetch_nand and __atomic_fetch_max /
   _min, unsigned on unsigned types): the results follow the operation's signedness and width.
   t1 and main each apply one operation to flags, hi and lo (in that order), and one to a
   location of their own; the final values do not depend on the order except for nand:
     flags (unsigned char, 0xFF): nand 0xF0 then nand 0x0F gives 0x0F then 0xF0; the other
     order 0xF0 then 0x0F, so main's old value tells the final one;
     hi (unsigned, 0): umax with 0x80000000 and 5 is 0x80000000 (a signed max would keep 5);
     lo (unsigned, 0xFFFFFFFF): umin with 3 and 0xFFFFFFF0 is 3 (a signed min: 0xFFFFFFF0);
     smax (int, -5): max with 3 is 3; smin (int, 5): min with -7 is -7.
   Counts: t1's four events interleave with main's four between the spawn and the join:
   C(8,4) = 70 interleavings. Three locations are shared, each pair of operations in either
   order, every combination possible: 8 classes (nand, max and min never commute under IFAA). */
#include <assert.h>
#include <pthread.h>

unsigned char flags = 0xFF;
unsigned int hi;
unsigned int lo = 0xFFFFFFFFu;
int smax = -5, smin = 5;

void *t1(void *arg) {
    (void)arg;
    __atomic_fetch_nand(&flags, 0xF0, __ATOMIC_SEQ_CST);
    __atomic_fetch_max(&hi, 0x80000000u, __ATOMIC_SEQ_CST);
    __atomic_fetch_min(&lo, 3u, __ATOMIC_SEQ_CST);
    __atomic_fetch_max(&smax, 3, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    unsigned char old = __atomic_fetch_nand(&flags, 0x0F, __ATOMIC_SEQ_CST);
    __atomic_fetch_max(&hi, 5u, __ATOMIC_SEQ_CST);
    __atomic_fetch_min(&lo, 0xFFFFFFF0u, __ATOMIC_SEQ_CST);
    __atomic_fetch_min(&smin, -7, __ATOMIC_SEQ_CST);
    pthread_join(t, 0);
    assert((old == 0xFF && flags == 0x0F) || (old == 0x0F && flags == 0xF0));
    assert(hi == 0x80000000u);
    assert(lo == 3u);
    assert(smax == 3 && smin == -7);
    return 0;
}
