// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/Step.hpp"

namespace porlab::graph {

void* FrameArena::grow(std::size_t n) {
    // Later chunks are empty (LIFO); one too small for n is replaced.
    if (!chunks_.empty()) {
        chunks_[cur_].used = static_cast<std::size_t>(top_ - begin_);
        ++cur_;
    }
    if (cur_ == chunks_.size()) {
        chunks_.emplace_back();
    }
    Chunk& c = chunks_[cur_];
    if (c.size < n) {
        constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
        c.size = n > kChunkBytes ? n : kChunkBytes;
        c.mem = std::make_unique_for_overwrite<std::byte[]>(c.size);
    }
    begin_ = c.mem.get();
    end_ = begin_ + c.size;
    top_ = begin_ + n;
    return begin_;
}

void FrameArena::shrink() noexcept {
    --cur_;
    Chunk& c = chunks_[cur_];
    begin_ = c.mem.get();
    top_ = begin_ + c.used;
    end_ = begin_ + c.size;
}

}  // namespace porlab::graph
