/* porlab-test
   args: --loops none
   verdict: safe
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin-classes: tests/c/twins.py name=cond_signal
*/
/* C++ twin of cond_signal.c: the consumer waits on a std::condition_variable with a predicate
   (std::unique_lock); main sets the data under the std::mutex and notifies. The classes are
   cond_signal.c's (main's join at the end adds none): main's critical section first (the
   consumer never waits) or the consumer's (it waits, and wakes after main's notify): 2. */
#include <cassert>
#include <condition_variable>
#include <mutex>
#include <thread>

std::mutex m;
std::condition_variable c;
int ready, data;

void consumer() {
    std::unique_lock<std::mutex> lock(m);
    c.wait(lock, [] { return ready != 0; });
    int v = data;
    lock.unlock();
    assert(v == 42);
}

int main() {
    std::thread t(consumer);
    m.lock();
    data = 42;
    ready = 1;
    c.notify_one();
    m.unlock();
    t.join();
    return 0;
}
