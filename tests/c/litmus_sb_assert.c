/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=6 blocked=0 errors=0
   optimal: complete=3 blocked=0
   partition: interleavings=6 mazurkiewicz=3 reads-from=3 rvf=3
*/
/* Data race (C11; porlab reports it by default): x is accessed by main's write at line 32 and
   by t1:t1's read at line 24, neither happening before the other, at least one of them not
   atomic. The test is about the interleavings of these accesses as written, so its header turns
   the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* SB with its SC assertion: a = b = 0 is impossible. main: spawn; x = 1; a = y; join (b comes
   back as t1's return value, no memory access). The join can only come after t1's last event
   and is main's last, so the interleavings are those of {Wx, Ry} and {Wy, Rx}: 6; 3 classes. */
#include <assert.h>
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    (void)arg;
    y = 1;
    int b = x;
    return (void *)(long)b;
}

int main(void) {
    pthread_t t;
    void *ret;
    pthread_create(&t, 0, t1, 0);
    x = 1;
    int a = y;
    pthread_join(t, &ret);
    int b = (int)(long)ret;
    assert(a == 1 || b == 1);
    return 0;
}
