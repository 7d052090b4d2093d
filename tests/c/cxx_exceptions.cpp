/* porlab-test
   args: -- -fexceptions
   verdict: safe
   optimal: complete=6 blocked=0
   optimal-await+ifaa: complete=1 blocked=0
   partition: mazurkiewicz=6 mazurkiewicz-ifaa=1 reads-from=6 rvf=6
*/
/* Compiled with -fexceptions: the calls in try blocks and in scopes with destructors become
   `invoke` instructions with landing pads. porlab throws nothing, so an invoke is a call and
   its landing pad is never reached. Each thread does two fetch-and-adds (k, then 100 in a
   destructor): C(4,2) = 6 orders of the four conflicting operations, each reading different
   values (6 rf, 6 RVF classes); with IFAA (results unused) they all commute: 1 class. */
#include <atomic>
#include <cassert>
#include <thread>

std::atomic<int> x{0};

struct Cleanup {
    ~Cleanup() { x.fetch_add(100); }
};

void work(int k) {
    Cleanup c;
    x.fetch_add(k);
}

int main() {
    try {
        std::thread a(work, 1);
        std::thread b(work, 2);
        a.join();
        b.join();
    } catch (...) {
        assert(false);
    }
    assert(x.load() == 203);
    return 0;
}
