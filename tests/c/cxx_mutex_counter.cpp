/* porlab-test
   verdict: safe
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin-classes: tests/c/twins.py name=mutex_counter
*/
/* C++ twin of mutex_counter.c: two std::threads increment a counter under a global std::mutex
   held by a std::lock_guard; the two critical sections go in 2 orders: 2 classes. */
#include <cassert>
#include <mutex>
#include <thread>

std::mutex m;
int count;

void worker() {
    std::lock_guard<std::mutex> guard(m);
    count = count + 1;
}

int main() {
    std::thread a(worker);
    std::thread b(worker);
    a.join();
    b.join();
    assert(count == 2);
    return 0;
}
