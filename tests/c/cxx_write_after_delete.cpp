/* porlab-test
   verdict: violation use-after-free
   optimal: complete=1 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
*/
/* delete is free: main deletes a node that a std::thread (a lambda capturing the pointer by
   value) still writes. The write and the free (an exchange of every location of the block)
   conflict: write first (complete, 1 class) or free first (the write is a use after free: 1
   error class). rf and rvf used to miss the complete class: they explore the write as a read of
   the block's liveness now (RvfSmc.cpp). */
#include <thread>

struct Node {
    int value = 0;
};

int main() {
    Node* n = new Node;
    std::thread t([n] { n->value = 1; }); // porlab: error
    delete n;
    t.join();
    return 0;
}
