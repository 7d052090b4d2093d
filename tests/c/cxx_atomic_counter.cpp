/* porlab-test
   verdict: safe
   optimal: complete=2 blocked=0
   optimal-await+ifaa: complete=1 blocked=0
   partition: mazurkiewicz=2 mazurkiewicz-ifaa=1 reads-from=2 rvf=2
   twin-classes: tests/c/twins.py name=cxx_atomic_counter
*/
/* C++: two std::threads started with a function and an argument add 1 and 2 to a
   std::atomic<int> with fetch_add (result unused); main joins both and asserts 3.
   The two fetch-and-adds conflict: 2 orders, 2 classes (each reads a different value: 2 rf,
   2 RVF classes); with IFAA they commute: 1 class. The std::thread machinery adds events (main
   writes the wrapper of the callable before the spawn, the new thread reads it) but no class:
   those events are ordered by the spawn. So naive's interleaving count is left out; the twin
   has the program's own events only. */
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> count{0};

void add(int k) { count.fetch_add(k); }

int main() {
    std::thread a(add, 1);
    std::thread b(add, 2);
    a.join();
    b.join();
    assert(count.load() == 3);
    return 0;
}
