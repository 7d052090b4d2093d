/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=2 blocked=0
*/
/* Data race (C11; porlab reports it by default): flag is accessed by main's read at line 36 and
   by t1:producer's write at line 29, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* Compiler barriers and fences written as inline assembly (asm volatile("" ::: "memory"),
   "mfence", "lock; addl $0,0(%rsp)"): porlab explores sequential consistency, where they order
   nothing more, so they are no-ops (other inline assembly is an UnsupportedError). Message
   passing: the consumer sees the data once it sees the flag. The producer's two writes and the
   consumer's reads (flag, then data if the flag is set): the flag read before both writes,
   between them, or after: 3 interleavings; 2 classes (the flag read before or after the flag
   write; it does not conflict with the data write). */
#include <assert.h>
#include <pthread.h>

int data, flag;

void *producer(void *arg) {
    (void)arg;
    data = 42;
    asm volatile("" ::: "memory");
    __asm__ __volatile__("mfence" ::: "memory");
    flag = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    int f = flag;
    __asm__ __volatile__("lock; addl $0,0(%%rsp)" ::: "memory", "cc");
    if (f) assert(data == 42);
    pthread_join(t, 0);
    return 0;
}
