// SPDX-License-Identifier: MIT
// The graph engine's recursion, made explicit. The TruSt core (GraphExplorer) and its policies
// are written as nested steps: a step adds an event, explores what follows (a deeper step), and
// undoes its change; the path of the exploration is as deep as an execution is long. Written as
// native recursion, a C execution of 100,000 events needed a 512 MiB stack. Here a step that
// explores deeper is a C++20 coroutine: `co_await child` suspends it and hands the child to the
// StepDriver, whose loop resumes the top of an explicit stack of suspended steps. The frames
// live on the heap (in the explorer's FrameArena: steps end in the reverse order they start), so
// the native stack stays a few frames deep however long the execution is, and the code reads as
// the recursion it replaces.
//
// Rules that keep that true:
//  * A step is awaited at once by the step that made it (nothing runs between the call and the
//    co_await), so effects happen in the recursion's order.
//  * A function that only prepares and then hands over to one deeper step, with nothing to undo
//    after it, is a plain function returning that step (no frame of its own): `visit`,
//    `proceed`. A default-constructed Step does nothing.
//  * A coroutine's parameters are copied into its frame, but what a reference parameter refers
//    to is not: pass events by value, graphs that outlive the step by reference.
//  * A step is a member function of an object with `FrameArena& stepArena()` (the frame is
//    allocated there: see promise_type::operator new).
//  * An exception in a step ends it and is rethrown in the step that awaits it (and so on up to
//    StepDriver::run's caller), unwinding as the recursion did.
//  * A level of the recursion whose only work after its child is a fixed undo (e.g. a read with
//    one source: pop the node it added) need not be a step at all: it is done as a plain call
//    (in a loop, so that a chain of them does not recurse on the native stack) that records its
//    undo in an undo log, and the step the chain ends in carries the count (Step::deferUndo):
//    the driver undoes them when that step ends, before its parent goes on -- where the
//    recursion would have returned through those levels.
#pragma once

#include <cassert>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <utility>
#include <vector>

namespace porlab::graph {

// The frames of the steps of one exploration, in chunks used as a stack: a step's frame is made
// when it is called (its parent is running: the top) and freed when its parent resumes (it has
// ended), so frames are freed in the reverse order of their allocation. A bump and a decrement
// where the general allocator searches, and the chunks stay for the next path.
class FrameArena {
  public:
    void* allocate(std::size_t n) {
        n = round(n);
        if (n <= static_cast<std::size_t>(end_ - top_)) {
            std::byte* p = top_;
            top_ += n;
            return p;
        }
        return grow(n);
    }
    void deallocate(void* p, std::size_t n) noexcept {
        top_ -= round(n);
        assert(top_ == p);
        (void)p;
        if (top_ == begin_ && cur_ > 0) shrink();
    }

  private:
    static constexpr std::size_t kAlign = alignof(std::max_align_t);
    static std::size_t round(std::size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }
    void* grow(std::size_t n);  // (Step.cpp) the next chunk
    void shrink() noexcept;     // back to the previous chunk
    struct Chunk {
        std::unique_ptr<std::byte[]> mem;
        std::size_t size = 0, used = 0;  // used: saved while a later chunk is the top
    };
    std::byte *begin_ = nullptr, *top_ = nullptr, *end_ = nullptr;  // the top chunk
    std::vector<Chunk> chunks_;
    std::size_t cur_ = 0;
};

class StepDriver;

class [[nodiscard]] Step {
  public:
    struct promise_type {
        StepDriver* driver = nullptr;
        std::coroutine_handle<promise_type> parent;  // the step awaiting this one (none: root)
        std::exception_ptr error;
        std::uint32_t undo = 0;  // entries of the driver's undo log to undo at the end

        Step get_return_object() { return Step(Handle::from_promise(*this)); }
        static std::suspend_always initial_suspend() noexcept { return {}; }
        // At its end a step makes its parent the driver's next step to resume.
        struct FinalAwaiter {
            [[nodiscard]] static bool await_ready() noexcept { return false; }
            inline void await_suspend(std::coroutine_handle<promise_type> h) const noexcept;
            static void await_resume() noexcept {}
        };
        static FinalAwaiter final_suspend() noexcept { return {}; }
        static void return_void() noexcept {}
        void unhandled_exception() noexcept { error = std::current_exception(); }
        // The frame of a step of `owner` comes from owner.stepArena(); a header before it says
        // which arena, for operator delete (which is given only the frame and its size).
        template <class Owner, class... Args>
        static void* operator new(std::size_t n, Owner& owner, Args&... /*params*/) {
            FrameArena& arena = owner.stepArena();
            auto* base = static_cast<std::byte*>(arena.allocate(n + kHeader));
            *reinterpret_cast<FrameArena**>(base) = &arena;
            return base + kHeader;
        }
        static void operator delete(void* p, std::size_t n) noexcept {
            std::byte* base = static_cast<std::byte*>(p) - kHeader;
            (*reinterpret_cast<FrameArena**>(base))->deallocate(base, n + kHeader);
        }
        static constexpr std::size_t kHeader = alignof(std::max_align_t);
    };
    using Handle = std::coroutine_handle<promise_type>;

    Step() = default;  // nothing to do
    Step(Step&& o) noexcept : h_(std::exchange(o.h_, {})) {}
    Step& operator=(Step&& o) noexcept {
        if (this != &o) {
            reset();
            h_ = std::exchange(o.h_, {});
        }
        return *this;
    }
    Step(const Step&) = delete;
    Step& operator=(const Step&) = delete;
    ~Step() { reset(); }

    // Is there a step to run (not a default-constructed Step)?
    [[nodiscard]] explicit operator bool() const noexcept { return static_cast<bool>(h_); }
    // When this (not yet started) step ends, undo the top n entries of the driver's undo log
    // (StepDriver::setUndo): the plain levels that led to it, done after it as their undo.
    void deferUndo(std::uint32_t n) noexcept { h_.promise().undo += n; }

    // Awaiting a step runs it (from the driver's loop) before the awaiting step goes on.
    [[nodiscard]] bool await_ready() const noexcept { return !h_; }
    inline void await_suspend(Handle parent) const;
    void await_resume() {
        if (!h_) return;  // (nothing was to be done)
        if (h_.promise().error) [[unlikely]]
            rethrow();
        reset();  // (the frame goes before its parent's: LIFO)
    }

  private:
    friend class StepDriver;
    explicit Step(Handle h) : h_(h) {}
    [[noreturn]] void rethrow() {
        std::exception_ptr e = std::move(h_.promise().error);
        reset();
        std::rethrow_exception(e);
    }
    void reset() noexcept {
        if (h_) std::exchange(h_, {}).destroy();
    }
    Handle h_;
};

// Runs a step and every step it awaits, one after the other, from one loop. The suspended steps
// form a stack through their promises' parent links: a step that awaits a child makes it the
// top, a step that ends makes its parent the top (no container to push to and pop from).
class StepDriver {
  public:
    // What undoes the top n entries of the owner's undo log (Step::deferUndo).
    using UndoFn = void (*)(void* owner, std::uint32_t n);
    void setUndo(UndoFn fn, void* owner) noexcept {
        undo_ = fn;
        undoOwner_ = owner;
    }
    // Runs s to its end (rethrows what it threw). Not reentrant.
    void run(Step s) {
        if (!s.h_) return;
        s.h_.promise().driver = this;
        s.h_.promise().parent = {};
        top_ = s.h_;
        while (top_) top_.resume();  // runs until it awaits a child or ends
        s.await_resume();
    }

  private:
    friend class Step;
    std::coroutine_handle<Step::promise_type> top_;
    UndoFn undo_ = nullptr;
    void* undoOwner_ = nullptr;
};

inline void Step::await_suspend(Handle parent) const {
    promise_type& child = h_.promise();
    child.driver = parent.promise().driver;
    child.parent = parent;
    child.driver->top_ = h_;
}

inline void Step::promise_type::FinalAwaiter::await_suspend(
    std::coroutine_handle<promise_type> h) const noexcept {
    promise_type& p = h.promise();
    if (p.undo) p.driver->undo_(p.driver->undoOwner_, p.undo);
    p.driver->top_ = p.parent;
}

}  // namespace porlab::graph
