/* porlab-test
   args: --loops none
   verdict: safe
   optimal: complete=4 blocked=0
   partition: mazurkiewicz=4 reads-from=4 rvf=4
*/
/* std::scoped_lock of two mutexes (std::lock: lock the first, try_lock the others; on a failed
   try_lock unlock, and start again from the one that failed), taken by main and a std::thread in
   the same order. ~scoped_lock unlocks a, then b. The first critical section is main's or the
   thread's (2); the other one's try_lock of b comes after the first's unlock of b, or between
   its unlocks of a and b: it fails, and the second thread unlocks a, locks b (waiting for the
   unlock) and try_locks a (2): 4 classes. */
#include <cassert>
#include <mutex>
#include <thread>

std::mutex a, b;
int x, y;

void transfer() {
    std::scoped_lock both(a, b);
    x = x + 1;
    y = y + 1;
}

int main() {
    std::thread t(transfer);
    transfer();
    t.join();
    assert(x == 2 && y == 2);
    return 0;
}
