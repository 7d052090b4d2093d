/* porlab-test
   args: -- -m32 -fgnu89-inline
   verdict: safe
   naive: complete=1 blocked=0 errors=0
*/
/* pointer_layout.c's checks for a 32-bit target (-m32; declarations as in SV-COMP's .i files,
   no system header): a pointer is 4 bytes, objects are 1 MiB apart, so truncated pointers are
   non-zero, distinct and aligned as well. One thread: one execution. */
typedef unsigned int size_t;
void *malloc(size_t);
void reach_error(void);
void __VERIFIER_assume(int);
#define assert(c) do { if (!(c)) reach_error(); } while (0)

int g1, g2[3];

static int low(const void *p) { return (int)(long)p; }

int main(void) {
    assert(sizeof(void *) == 4);
    char *a = malloc(1), *b = malloc(1);
    __VERIFIER_assume((int)(long)a);
    assert(low(a) != 0 && low(b) != 0 && low(a) != low(b));
    assert(low(&g1) != 0 && low(&g1) != low(&g2[0]) && low(&g2[2]) - low(&g2[0]) == 8);
    assert(((unsigned long)a & 15) == 0 && ((unsigned long)b & 15) == 0);
    return 0;
}
