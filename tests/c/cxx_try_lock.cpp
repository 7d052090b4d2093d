/* porlab-test
   verdict: safe
   optimal: complete=3 blocked=0
   partition: mazurkiewicz=3 reads-from=3 rvf=3
*/
/* C++ twin of mutex_trylock.c, with std::mutex::try_lock and a std::unique_lock in main (and a
   join at the end, which adds no class). As there: the try_lock before main's lock (succeeds),
   while main holds the mutex (fails: it conflicts with neither x = 1 nor main's lock, so its 2
   places are 1 class), or after main's unlock (succeeds): 3 classes, 3 rf and 3 RVF classes. */
#include <mutex>
#include <thread>

std::mutex m;
int x;

void t1() {
    if (m.try_lock()) {
        x = 2;
        m.unlock();
    }
}

int main() {
    std::thread t(t1);
    {
        std::unique_lock<std::mutex> lock(m);
        x = 1;
    }
    t.join();
    return 0;
}
