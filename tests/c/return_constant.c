/* porlab-test
   verdict: safe
   naive: complete=1 blocked=0 errors=0
   optimal: complete=1 blocked=0
*/
/* The first constant the lowering meets is the 5 returned by `initial`. Operand -1 means "no
   value" (a void return), and constant k was operand ~k: constant 0 was operand -1, so
   `return 5` returned nothing and the assertion failed. One thread, no shared access: one
   execution. */
#include <assert.h>

int initial(void) { return 5; }

int main(void) {
    assert(initial() == 5);
    return 0;
}
