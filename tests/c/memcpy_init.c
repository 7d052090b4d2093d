/* porlab-test
   verdict: safe
   naive: complete=1 blocked=0 errors=0
   partition: interleavings=1 mazurkiewicz=1 reads-from=1 rvf=1
*/
/* memcpy and memset: main fills a shared array from a local one with memcpy and clears a shared
   struct with memset, all before creating the reader, so there is one interleaving whatever
   events the copies are made of; the reader checks what it sees. memcpy between locals and
   memset on a local are thread-local computation. */
#include <assert.h>
#include <pthread.h>
#include <string.h>

int table[3];
struct {
    int a;
    int b;
} rec = {7, 8};

void *reader(void *arg) {
    (void)arg;
    assert(table[0] == 1 && table[1] == 2 && table[2] == 3);
    assert(rec.a == 0 && rec.b == 0);
    return 0;
}

int main(void) {
    int src[3] = {1, 2, 3};
    int tmp[3];
    memset(tmp, 0, sizeof tmp);
    memcpy(tmp, src, sizeof src);
    memcpy(table, tmp, sizeof tmp);
    memset(&rec, 0, sizeof rec);
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    return 0;
}
