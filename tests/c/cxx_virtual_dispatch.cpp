/* porlab-test
   verdict: safe
   optimal: complete=2 blocked=0
   partition: mazurkiewicz=2 reads-from=2 rvf=2
   twin-classes: tests/c/twins.py name=cxx_virtual_dispatch
*/
/* A class with a virtual method called from two std::threads through a base-class pointer to a
   heap object (new/delete) with a std::mutex member: deposit(1) and deposit(2) under its lock.
   The calls read the object's vtable pointer, which only main wrote, before the spawns: no
   class. The critical sections go in 2 orders: 2 classes. */
#include <cassert>
#include <mutex>
#include <thread>

struct Account {
    virtual ~Account() = default;
    virtual void deposit(int v) = 0;
    int balance = 0;
};

struct Locked : Account {
    std::mutex m;
    void deposit(int v) override {
        std::lock_guard<std::mutex> guard(m);
        balance = balance + v;
    }
};

int main() {
    Account* acct = new Locked;
    std::thread a([acct] { acct->deposit(1); });
    std::thread b([acct] { acct->deposit(2); });
    a.join();
    b.join();
    assert(acct->balance == 3);
    delete acct;
    return 0;
}
