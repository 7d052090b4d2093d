// SPDX-License-Identifier: MIT
// porlab's C++ runtime: the out-of-line functions of libstdc++ and of the C++ ABI that programs
// using std::thread, std::mutex, std::condition_variable, new/delete and static locals call.
// libstdc++ keeps them in libstdc++.so; porlab compiles this file with the program's flags and
// links it into the program's module before lowering, so that they run on porlab's own pthread
// built-ins: a std::thread is a porlab thread (pthread_create/join), a std::mutex a porlab mutex.
//
// Where libstdc++ would throw (joining a thread that is not joinable, unique_lock::unlock of a
// lock it does not own, ...) or call std::terminate (a joinable std::thread destroyed), the
// program would end in std::terminate: porlab reports it as an assertion failure, at the line of
// the program that called into the library (porlab inlines this code into the caller and
// attributes library lines to the caller's line).
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <new>
#include <thread>

extern "C" void __assert_fail(const char* assertion, const char* file, unsigned line,
                              const char* function) noexcept __attribute__((__noreturn__));

namespace {

[[noreturn]] void fail(const char* what) { __assert_fail(what, __FILE__, __LINE__, "C++ runtime"); }

}  // namespace

// ---- threads ---------------------------------------------------------------------------------

// The start routine of every std::thread (its name is what porlab shows as the thread's name,
// e.g. "t1:std::thread"): runs the callable the constructor wrapped. libstdc++ then deletes the
// wrapper; porlab leaves it (nobody else can reach it): a delete would add an event per word of
// it to every thread, which only the exhaustive explorers would pay for, in interleavings.
extern "C" void* porlabStdThread(void* p) __asm__("std::thread");
extern "C" void* porlabStdThread(void* p) {
    static_cast<std::thread::_State*>(p)->_M_run();
    return nullptr;
}

namespace std {

thread::_State::~_State() = default;

void thread::_M_start_thread(_State_ptr state, void (*)()) {
    if (pthread_create(&_M_id._M_thread, nullptr, &porlabStdThread, state.get()) != 0)
        fail("std::thread: the thread could not be created");
    (void)state.release();  // the new thread owns it
}

void thread::join() {
    if (!joinable()) fail("std::thread::join of a thread that is not joinable");
    pthread_join(_M_id._M_thread, nullptr);
    _M_id = id();
}

void thread::detach() {
    if (!joinable()) fail("std::thread::detach of a thread that is not joinable");
    _M_id = id();  // the thread runs on; porlab waits for every thread to finish
}

unsigned int thread::hardware_concurrency() noexcept { return 1; }

// ---- condition variables ---------------------------------------------------------------------
// Each is a pthread condition variable (porlab's semantics: a waiter wakes only by a notify sent
// after it started waiting; no spurious wake-ups).

condition_variable::condition_variable() noexcept = default;
condition_variable::~condition_variable() noexcept = default;

void condition_variable::wait(unique_lock<mutex>& lock) {
    if (!lock.owns_lock()) fail("std::condition_variable::wait with a lock that is not held");
    _M_cond.wait(*lock.mutex());
}

void condition_variable::notify_one() noexcept { _M_cond.notify_one(); }
void condition_variable::notify_all() noexcept { _M_cond.notify_all(); }

// ---- what would throw or terminate -------------------------------------------------------------

void terminate() noexcept { fail("std::terminate (e.g. a joinable std::thread destroyed)"); }

void __throw_bad_exception() { fail("std::bad_exception thrown"); }
void __throw_bad_alloc() { fail("std::bad_alloc thrown"); }
void __throw_bad_array_new_length() { fail("std::bad_array_new_length thrown"); }
void __throw_bad_cast() { fail("std::bad_cast thrown"); }
void __throw_bad_typeid() { fail("std::bad_typeid thrown"); }
void __throw_logic_error(const char*) { fail("std::logic_error thrown"); }
void __throw_domain_error(const char*) { fail("std::domain_error thrown"); }
void __throw_invalid_argument(const char*) { fail("std::invalid_argument thrown"); }
void __throw_length_error(const char*) { fail("std::length_error thrown"); }
void __throw_out_of_range(const char*) { fail("std::out_of_range thrown"); }
void __throw_runtime_error(const char*) { fail("std::runtime_error thrown"); }
void __throw_range_error(const char*) { fail("std::range_error thrown"); }
void __throw_overflow_error(const char*) { fail("std::overflow_error thrown"); }
void __throw_underflow_error(const char*) { fail("std::underflow_error thrown"); }
void __throw_system_error(int) { fail("std::system_error thrown"); }
void __throw_bad_function_call() { fail("std::bad_function_call thrown"); }

}  // namespace std

// ---- new and delete: malloc and free ---------------------------------------------------------

void* operator new(std::size_t n) { return malloc(n); }
void* operator new[](std::size_t n) { return malloc(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return malloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return malloc(n); }
void* operator new(std::size_t n, std::align_val_t) { return malloc(n); }
void* operator new[](std::size_t n, std::align_val_t) { return malloc(n); }
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, std::size_t) noexcept { free(p); }
void operator delete[](void* p, std::size_t) noexcept { free(p); }
void operator delete(void* p, std::align_val_t) noexcept { free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { free(p); }

// ---- the C++ ABI -------------------------------------------------------------------------------

namespace {
// One lock and one condition variable for every static local, as libstdc++'s guard.cc has on
// targets without futexes. Guard byte 0: initialised (the compiler's inline check reads it);
// byte 1: a thread is running the initialiser. (porlab gives guard variables the type [8 x i8].)
pthread_mutex_t guardMutex = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t guardCond = PTHREAD_COND_INITIALIZER;
}  // namespace

extern "C" {

int __cxa_guard_acquire(unsigned char* g) {
    pthread_mutex_lock(&guardMutex);
    for (;;) {
        if (__atomic_load_n(&g[0], __ATOMIC_ACQUIRE) != 0) {
            pthread_mutex_unlock(&guardMutex);
            return 0;  // initialised by another thread meanwhile
        }
        if (g[1] == 0) {
            g[1] = 1;
            pthread_mutex_unlock(&guardMutex);
            return 1;  // this thread runs the initialiser
        }
        pthread_cond_wait(&guardCond, &guardMutex);
    }
}

void __cxa_guard_release(unsigned char* g) {
    pthread_mutex_lock(&guardMutex);
    g[1] = 0;
    __atomic_store_n(&g[0], 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&guardCond);
    pthread_mutex_unlock(&guardMutex);
}

void __cxa_guard_abort(unsigned char* g) {
    pthread_mutex_lock(&guardMutex);
    g[1] = 0;
    pthread_cond_broadcast(&guardCond);
    pthread_mutex_unlock(&guardMutex);
}

// Destructors of globals and static locals are not run (the program ends when its threads do).
// (__dso_handle identifies the module to __cxa_atexit; crtbegin.o defines it in a real link.)
void* __dso_handle = nullptr;
int __cxa_atexit(void (*)(void*), void*, void*) { return 0; }
int atexit(void (*)()) noexcept { return 0; }

// libstdc++ reads glibc's flag to choose atomic reference counts (std::shared_ptr): a porlab
// program has threads. (Constant: reading it is no event.)
extern const char porlabSingleThreaded __asm__("__libc_single_threaded");
const char porlabSingleThreaded = 0;

// std::this_thread::sleep_for: time does not pass in porlab, as with usleep and sleep.
int nanosleep(const struct timespec*, struct timespec*) { return 0; }

void __cxa_bad_typeid() { fail("std::bad_typeid thrown (typeid of *nullptr)"); }
void __cxa_bad_cast() { fail("std::bad_cast thrown"); }
void __cxa_pure_virtual() { fail("pure virtual function called"); }
void __cxa_deleted_virtual() { fail("deleted virtual function called"); }

}  // extern "C"

// The vtables of the type_info classes: type_info objects of polymorphic classes point into
// them. porlab does not interpret RTTI (dynamic_cast and typeid of a polymorphic object are
// rejected where the program calls the library for them); these only give the pointers a target.
extern "C" const void* const porlabClassTypeInfoVtable[4] __asm__(
    "_ZTVN10__cxxabiv117__class_type_infoE") = {};
extern "C" const void* const porlabSiClassTypeInfoVtable[4] __asm__(
    "_ZTVN10__cxxabiv120__si_class_type_infoE") = {};
extern "C" const void* const porlabVmiClassTypeInfoVtable[4] __asm__(
    "_ZTVN10__cxxabiv121__vmi_class_type_infoE") = {};
