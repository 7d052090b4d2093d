/* porlab-test
   args: --disable-race-detection
   verdict: safe
   naive: complete=4 blocked=0 errors=0
   optimal: complete=2 blocked=0
*/
/* Data race (C11; porlab reports it by default): head is accessed by main's read at line 48 and
   by t1:publisher's write at line 37, neither happening before the other, at least one of them
   not atomic. The test is about the interleavings of these accesses as written, so its header
   turns the check off (--disable-race-detection); tests/python/test_bugchecks.py tests the race
   check. */
/* offsetof and container_of through a null pointer, in constant expressions (global
   initialisers: a GEP on null, a pointer converted to an integer and back) and in code: the
   Linux-style list node embedded in a struct, recovered from a pointer to its member. The
   thread publishes &item.node in `head`; main reads the globals `self`, `null_plus` and `head`
   and follows a non-null head back to the item (a read of item.key). The thread's write falls
   before one of main's three reads (main then reads the key) or after them: 4 interleavings, 2
   classes (main reads head before or after the write). */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define OFFSET_OF(T, f) ((size_t)&((T *)0)->f)
#define CONTAINER_OF(p, T, f) ((T *)((char *)(p) - OFFSET_OF(T, f)))

struct node { struct node *next; };
struct item { int key; long pad; struct node node; int arr[4]; };

static const size_t offsets[] = {OFFSET_OF(struct item, node), offsetof(struct item, arr[2])};
struct item item = {.key = 42};
struct item *self = CONTAINER_OF(&item.node, struct item, node);
char *null_plus = (char *)&((struct item *)0)->arr[3];
struct node *head;

void *publisher(void *arg) {
    (void)arg;
    head = &item.node;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, publisher, 0);
    assert(offsets[0] == 16 && offsets[1] == 32);
    assert(self == &item && (size_t)null_plus == 36);
    int i = 1;
    assert((size_t)&((struct item *)0)->arr[i] == 28);
    struct node *n = head;
    if (n) assert(CONTAINER_OF(n, struct item, node)->key == 42);
    pthread_join(t, 0);
    return 0;
}
