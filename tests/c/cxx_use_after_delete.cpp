/* porlab-test
   verdict: violation use-after-free
   optimal: complete=1 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
*/
/* delete is free: main deletes a node that a std::thread (a lambda capturing the pointer by
   value) still reads (C++ twin of use_after_free.c). The read and the free (an exchange of every
   location of the block) conflict: read first (complete, 1 class) or free first (the read is a
   use after free: 1 error class). */
#include <cassert>
#include <thread>

struct Node {
    int value = 7;
};

int main() {
    Node* n = new Node;
    int seen = 0;
    std::thread t([n, &seen] { seen = n->value; }); // porlab: error
    delete n;
    t.join();
    assert(seen == 7);
    return 0;
}
