/* porlab-test
   verdict: safe
   optimal: complete=2 blocked=0
   optimal-await+ifaa: complete=1 blocked=0
   partition: mazurkiewicz=2 mazurkiewicz-ifaa=1 reads-from=2 rvf=2
   twin-classes: tests/c/twins.py name=cxx_lambda_captures
*/
/* std::threads running lambdas: one captures a local std::atomic<int> by reference and an int
   by value (main changes its copy afterwards), the other captures everything by reference plus
   an init-capture and takes an argument. They add 10 and 2 + 3 to the local: the two
   fetch-and-adds (results unused) give 2 classes, 1 with IFAA. */
#include <atomic>
#include <cassert>
#include <thread>

int main() {
    std::atomic<int> total{0};
    int base = 10;
    std::thread a([&total, base] { total.fetch_add(base); });
    std::thread b([&, k = 2](int extra) { total.fetch_add(k + extra); }, 3);
    base = 100;  // a copied it before
    a.join();
    b.join();
    assert(total.load() == 15);
    return 0;
}
