/* porlab-test
   args: --disable-race-detection
   verdict: violation assert
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=4 reads-from=4 rvf=3
   twin-classes: tests/c/twins.py name=cxx_mutex_missing
*/
/* Data race (C11; porlab reports it by default): count is accessed by t1:std::thread's read at
   line 26 and by t2:std::thread's write at line 30, neither happening before the other, at
   least one of them not atomic. The test is about the interleavings of these accesses as
   written, so its header turns the check off (--disable-race-detection);
   tests/python/test_bugchecks.py tests the race check. */
/* cxx_mutex_counter.cpp with one thread that forgets the mutex (std::mutex::lock/unlock in the
   careful one). Its lock and unlock conflict with nothing the careless thread does, so the
   classes are those of the four accesses to count, as in racy_counter.c: 2 complete, 2 error
   classes (both reads before both writes), 3 RVF classes. */
#include <cassert>
#include <mutex>
#include <thread>

std::mutex m;
int count;

void careful() {
    m.lock();
    count = count + 1;
    m.unlock();
}

void careless() { count = count + 1; }

int main() {
    std::thread a(careful);
    std::thread b(careless);
    a.join();
    b.join();
    assert(count == 2); // porlab: error
    return 0;
}
