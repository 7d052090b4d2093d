/* porlab-test
   verdict: violation assert
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=4 reads-from=4 rvf=3
   twin-classes: tests/c/twins.py name=racy_counter
*/
/* C++ twin of racy_counter.c: each std::thread increments a std::atomic<int> with a separate
   load and store, so an update is lost when both loads come before both stores. The classes are
   racy_counter.c's: 2 serial orders complete, 2 error classes (both loads first, then the order
   of the two stores), 4 in all; the two error classes read 0, 0 and write 1, 1: 3 RVF classes. */
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> count{0};

void worker() { count.store(count.load() + 1); }

int main() {
    std::thread a(worker);
    std::thread b(worker);
    a.join();
    b.join();
    assert(count.load() == 2); // porlab: error
    return 0;
}
