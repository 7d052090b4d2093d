/* porlab-test
   args: --loops none
   verdict: safe
   naive: complete=1 blocked=0 errors=0
*/
/* Every member function and operator of std::atomic for integers (int, unsigned char that
   wraps, long long, uint16_t), bool and pointers, the free functions (std::atomic_fetch_add,
   ...), fences and std::atomic_flag, each checked by an assertion of its C++ result. One
   thread: one execution, and it must not fail. */
#include <atomic>
#include <cassert>
#include <cstdint>

std::atomic<int> i{5};
std::atomic<unsigned char> u8{250};
std::atomic<long long> ll{-3};
std::atomic<bool> b{false};
int arr[4] = {10, 20, 30, 40};
std::atomic<int*> p{&arr[0]};
std::atomic<std::uint16_t> u16{0xffff};

int main() {
    assert(i.is_lock_free());
    assert(i.load() == 5 && i.load(std::memory_order_relaxed) == 5 && int(i) == 5);
    i.store(7, std::memory_order_release);
    assert(i == 7);
    i = 8;
    assert(i.exchange(9, std::memory_order_acq_rel) == 8);
    int e = 1;
    assert(!i.compare_exchange_strong(e, 11));
    assert(e == 9);
    assert(i.compare_exchange_strong(e, 11, std::memory_order_acquire));
    e = 11;
    while (!i.compare_exchange_weak(e, 12, std::memory_order_seq_cst, std::memory_order_relaxed)) {}
    assert(i.fetch_add(3) == 12 && i == 15);
    assert(i.fetch_sub(5, std::memory_order_relaxed) == 15 && i == 10);
    assert(i.fetch_and(6) == 10 && i == 2);
    assert(i.fetch_or(5) == 2 && i == 7);
    assert(i.fetch_xor(1) == 7 && i == 6);
    assert(++i == 7 && i++ == 7 && i == 8);
    assert(--i == 7 && i-- == 7 && i == 6);
    assert((i += 4) == 10 && (i -= 3) == 7);
    assert((i &= 3) == 3 && (i |= 8) == 11 && (i ^= 1) == 10);
    u8 += 10;  // wraps
    assert(u8 == 4);
    assert(u8.fetch_sub(5) == 4 && u8 == 255);
    assert(ll.fetch_add(-2) == -3 && ll == -5);
    assert(u16.fetch_add(1) == 0xffff && u16 == 0);
    assert(!b.load() && !b.exchange(true) && b);
    bool f = false;
    assert(!b.compare_exchange_strong(f, false) && f);
    b = false;
    assert(!b);
    assert(p.load() == &arr[0] && *p.load() == 10);
    assert(p.fetch_add(2) == &arr[0] && *p.load() == 30);
    assert((p -= 1) == &arr[1] && *p == 20);
    assert(++p == &arr[2] && p++ == &arr[2] && *p == 40);
    int* q = &arr[3];
    assert(p.compare_exchange_strong(q, &arr[0]) && *p == 10);
    assert(p.exchange(&arr[1]) == &arr[0]);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    std::atomic<int> local{3};
    assert(std::atomic_fetch_add(&local, 2) == 3 && std::atomic_load(&local) == 5);
    std::atomic_store_explicit(&local, 1, std::memory_order_relaxed);
    assert(std::atomic_exchange(&local, 4) == 1);
    std::atomic_flag fl = ATOMIC_FLAG_INIT;
    assert(!fl.test_and_set() && fl.test_and_set());
    fl.clear();
    assert(!fl.test_and_set(std::memory_order_acquire));
    return 0;
}
