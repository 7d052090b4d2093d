/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=35 blocked=0 errors=0
   optimal: complete=4 blocked=0
   partition: interleavings=35 mazurkiewicz=4 reads-from=4 rvf=4
   twin: tests/c/twins.py name=int_widths
*/
/* Data race (C11; porlab reports it by default): u32 is accessed by main's read at line 38 and
   by t1:t1's write at line 31, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Shared variables of every integer width, signed and unsigned: t1 writes a char, a short, a
   long long and an unsigned; main reads them (an MP per variable pair) and checks that the values
   arrive whole, with their sign and width (thread-local arithmetic wraps as in C). */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

int8_t c8;
int16_t s16;
int64_t l64;
uint32_t u32;

void *t1(void *arg) {
    (void)arg;
    c8 = -100;
    s16 = -30000;
    l64 = -5000000000LL;
    u32 = 4000000000u;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    uint32_t u = u32;
    int64_t l = l64;
    int8_t c = c8;
    assert(u == 0 || u == 4000000000u);
    assert(l == 0 || l == -5000000000LL);
    assert(c == 0 || c == -100);
    /* u32 is written last: seeing it means every other write is visible */
    if (u != 0)
        assert(c == -100 && l == -5000000000LL);
    int8_t wrapped = (int8_t)(c - 100);
    assert(c == 0 ? wrapped == -100 : wrapped == 56);
    return 0;
}
