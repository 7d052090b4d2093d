/* porlab-test
   verdict: safe
   naive: complete=3 blocked=0 errors=0
   optimal: complete=2 blocked=0
*/
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
