/* porlab-test
   verdict: safe
   naive: complete=1 blocked=0 errors=0
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
*/
/* Thread-local computation, checked by assertions (each holds when compiled natively): integer
   widths, signedness, wrap-around, shifts, division and remainder of negative numbers, switch,
   select, loops over local arrays, pointer comparison and difference, string literals, recursion
   and function pointers. None of it is visible: the thread's only event is the final write of a
   checksum, which main reads after the join (1 interleaving). */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

int checksum;

static int classify(int v) {
    switch (v % 4) {
    case 0: return 10;
    case 1: return 20;
    case -1: return -20;
    default: return v > 0 ? 30 : -30;
    }
}

static int64_t sum_to(int64_t n) { return n == 0 ? 0 : n + sum_to(n - 1); }

static int apply(int (*f)(int), int v) { return f(v); }

void *worker(void *arg) {
    (void)arg;
    int8_t c = 127;
    c = (int8_t)(c + 1);
    assert(c == -128);
    uint8_t uc = 250;
    uc = (uint8_t)(uc + 10);
    assert(uc == 4);
    int16_t s = -300;
    assert((uint16_t)s == 65236);
    uint32_t u = 0;
    u = u - 1;
    assert(u == 4294967295u && (int32_t)u == -1);
    assert(-7 / 2 == -3 && -7 % 2 == -1 && 7 % -2 == 1);
    assert((-16 >> 2) == -4 && (0x80000000u >> 31) == 1 && (1ULL << 40) == 1099511627776ULL);
    int64_t big = INT64_C(3000000000) * 3;
    assert(big == INT64_C(9000000000));
    assert((int32_t)(uint32_t)3000000000u == -1294967296);
    assert(classify(8) == 10 && classify(5) == 20 && classify(-5) == -20 && classify(7) == 30);
    assert(sum_to(20) == 210);
    assert(apply(classify, -6) == -30);
    int arr[6];
    for (int i = 0; i < 6; i++)
        arr[i] = i * i;
    int *lo = &arr[1], *hi = &arr[5];
    assert(hi - lo == 4 && lo < hi && *(hi - 1) == 16);
    const char *msg = "porlab";
    assert(msg[0] == 'p' && msg[5] == 'b');
    int acc = 0;
    for (int i = 0; i < 6; i++)
        acc += (arr[i] & 1) ? arr[i] : -arr[i];
    assert(acc == 1 + 9 + 25 - 0 - 4 - 16);
    checksum = acc + (int)uc;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    assert(checksum == 19);
    return 0;
}
