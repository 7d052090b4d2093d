/* porlab-test
   verdict: safe
   naive: complete=2 blocked=0 errors=0
   optimal: complete=2 blocked=0
*/
/* realloc keeps the contents (a copy of the old block's locations, then a free of it),
   posix_memalign and aligned_alloc give usable blocks, and strlen / strcmp / memcmp work on
   private and constant memory. main grows its block (every event before the spawn), then hands
   it to the thread, which writes one slot while main reads it (atomically: plain accesses would
   race): 2 interleavings, 2 classes. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void *writer(void *arg) {
    int *v = arg;
    __atomic_store_n(&v[3], 7, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void) {
    int *v = realloc(NULL, 2 * sizeof(int));
    v[0] = 1;
    v[1] = 2;
    v = realloc(v, 4 * sizeof(int));
    assert(v[0] == 1 && v[1] == 2);
    v[3] = 0;  // the grown part is uninitialised (reading it before a write is an error)
    pthread_t t;
    pthread_create(&t, 0, writer, v);
    int seen = __atomic_load_n(&v[3], __ATOMIC_SEQ_CST);
    assert(seen == 0 || seen == 7);
    pthread_join(t, 0);
    char name[8] = "porlab";
    assert(strlen(name) == 6 && strlen("") == 0);
    assert(strcmp(name, "porlab") == 0 && strcmp("a", "b") < 0 && memcmp("ab", "aa", 2) > 0);
    free(v);
    return 0;
}
