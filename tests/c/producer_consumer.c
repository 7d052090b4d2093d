/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=1 blocked=0 errors=0
   optimal: complete=1 blocked=0
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
   twin: tests/c/twins.py name=producer_consumer
*/
/* Data race (C11; porlab reports it by default): flag is accessed by main's await at
   porlab.h:52 and by t1:consumer's write at line 29, neither happening before the other, at
   least one of them not atomic. The test is about the interleavings of these accesses as
   written, so its header turns the check off (--disable-race-detection);
   tests/python/test_bugchecks.py tests the race check. */
/* A one-slot buffer handed over with awaits (porlab.h's readable wrappers around Nidhugg's
   intrinsics): the producer waits for the slot to be empty, fills it and raises the flag; the
   consumer waits for the flag, takes the item, checks it and clears the flag. Two items. */
#include <assert.h>
#include <porlab.h>
#include <pthread.h>

int flag, slot;

void *consumer(void *arg) {
    (void)arg;
    for (int i = 1; i <= 2; i++) {
        porlab_await_eq(&flag, 1);
        int v = slot;
        assert(v == i);
        flag = 0;
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, consumer, 0);
    for (int i = 1; i <= 2; i++) {
        porlab_await_eq(&flag, 0);
        slot = i;
        flag = 1;
    }
    return 0;
}
