/* porlab-test
   verdict: safe
   optimal: complete=2 blocked=0
   optimal-await+ifaa: complete=1 blocked=0
   partition: mazurkiewicz=2 mazurkiewicz-ifaa=1 reads-from=2 rvf=2
   twin-classes: tests/c/twins.py name=cxx_global_ctor
*/
/* A global object whose constructor is not constexpr (it calls a function): it runs at the start
   of main (llvm.global_ctors), so main sees 5 before it starts the threads, which add 1 and 2.
   2 classes (the order of the fetch-and-adds), 1 with IFAA. Without the constructor the first
   assertion fails. */
#include <atomic>
#include <cassert>
#include <thread>

int initial() { return 5; }

struct Counter {
    std::atomic<int> value;
    Counter() : value(initial()) {}
    void bump(int k) { value.fetch_add(k); }
};

Counter counter;

int main() {
    assert(counter.value.load() == 5);
    std::thread a([] { counter.bump(1); });
    std::thread b([] { counter.bump(2); });
    a.join();
    b.join();
    assert(counter.value.load() == 8);
    return 0;
}
