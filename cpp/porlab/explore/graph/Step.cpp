// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/Step.hpp"

#include <cassert>
#include <cstdint>
#include <memory>
#include <new>

namespace porlab::graph {

namespace {

// The frames of the steps of one thread, in chunks used as a stack: a step's frame is made when
// it is called (its parent is running: the top) and freed when its parent resumes (it has
// ended), so frames are freed in the reverse order of their allocation. A bump and a decrement,
// where the general allocator costs a search per frame, and chunks stay for the next path.
class FrameArena {
  public:
    void* allocate(std::size_t n) {
        n = round(n);
        if (chunks_.empty()) addChunk(n);
        while (chunks_[cur_].used + n > chunks_[cur_].size) {
            // Later chunks are empty (LIFO); one too small for n is replaced.
            if (++cur_ == chunks_.size()) {
                addChunk(n);
            } else if (chunks_[cur_].size < n) {
                chunks_[cur_] = makeChunk(n);
            }
        }
        Chunk& c = chunks_[cur_];
        void* p = c.mem.get() + c.used;
        c.used += n;
        return p;
    }
    void deallocate(void* p, std::size_t n) noexcept {
        n = round(n);
        Chunk& c = chunks_[cur_];
        assert(c.used >= n && c.mem.get() + (c.used - n) == p);
        (void)p;
        c.used -= n;
        while (cur_ > 0 && chunks_[cur_].used == 0) --cur_;
    }

  private:
    static constexpr std::size_t kAlign = alignof(std::max_align_t);
    static constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
    struct Chunk {
        std::unique_ptr<std::byte[]> mem;
        std::size_t size = 0, used = 0;
    };
    static std::size_t round(std::size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }
    static Chunk makeChunk(std::size_t n) {
        const std::size_t size = n > kChunkBytes ? n : kChunkBytes;
        return Chunk{std::make_unique<std::byte[]>(size), size, 0};
    }
    void addChunk(std::size_t n) { chunks_.push_back(makeChunk(n)); }

    std::vector<Chunk> chunks_;
    std::size_t cur_ = 0;
};

FrameArena& arena() {
    thread_local FrameArena a;
    return a;
}

}  // namespace

void* Step::promise_type::operator new(std::size_t n) { return arena().allocate(n); }

void Step::promise_type::operator delete(void* p, std::size_t n) noexcept {
    arena().deallocate(p, n);
}

}  // namespace porlab::graph
