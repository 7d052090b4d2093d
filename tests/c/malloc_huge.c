/* porlab-test
   verdict: safe
   naive: complete=1 blocked=0 errors=0
*/
/* An impossible allocation is a program behaviour, not bad input: malloc of a huge (or
   "negative") size and a calloc whose size overflows return NULL, as C says, and the program
   that checks for it goes on. aligned_alloc with an alignment that is not a power of two and
   posix_memalign of a huge size fail the same way (posix_memalign leaves its pointer alone and
   returns ENOMEM). One thread, no shared access: one execution. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

int main(void) {
    long n = -1;
    char *p = malloc((size_t)n);
    assert(p == NULL);
    assert(malloc((size_t)1 << 50) == NULL);
    assert(calloc((size_t)1 << 40, (size_t)1 << 40) == NULL);
    assert(aligned_alloc(24, 48) == NULL);
    void *q = &n;
    assert(posix_memalign(&q, 16, (size_t)-16) == ENOMEM && q == &n);
    char *ok = malloc(16);
    assert(ok != NULL);
    ok[15] = 1;
    free(ok);
    return 0;
}
