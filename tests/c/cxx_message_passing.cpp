/* porlab-test
   verdict: safe
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin-classes: tests/c/twins.py name=cxx_message_passing
*/
/* Message passing with std::atomic<bool> and memory orders (release/acquire/relaxed), which
   porlab explores as sequentially consistent. writer: data = 1; ready = true. main: if ready,
   assert data == 1. Classes: main's load of ready comes before the writer's store (it reads
   false and reads nothing else: 1 class) or after it (then it also reads data after the write of
   data: 1 class). */
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> data{0};
std::atomic<bool> ready{false};

void writer() {
    data.store(1, std::memory_order_relaxed);
    ready.store(true, std::memory_order_release);
}

int main() {
    std::thread w(writer);
    if (ready.load(std::memory_order_acquire))
        assert(data.load(std::memory_order_relaxed) == 1);
    w.join();
    return 0;
}
