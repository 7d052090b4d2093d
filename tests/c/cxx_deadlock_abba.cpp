/* porlab-test
   verdict: violation deadlock
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=3 reads-from=3 rvf=3
*/
/* C++ twin of deadlock_abba.c with std::lock_guard: main takes a then b, the thread b then a.
   As there: 2 complete classes (one goes first), and the deadlock when each holds its first
   lock (1 error class): 3. */
#include <mutex>
#include <thread>

std::mutex a, b;

void ba() {
    std::lock_guard<std::mutex> first(b);
    std::lock_guard<std::mutex> second(a);
}

int main() {
    std::thread t(ba);
    {
        std::lock_guard<std::mutex> first(a);
        std::lock_guard<std::mutex> second(b);
    }
    t.join();
    return 0;
}
