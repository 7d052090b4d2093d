// SPDX-License-Identifier: MIT
// The witness (a linearisation of the graph) of every depth of the exploration, in one buffer.
// The witness of depth d+1 is most often that of depth d with one more node: it then shares
// d's entries, and a depth costs one entry, not a copy (copies made memory quadratic in the
// length of an execution). A witness that is not such an extension (a revisit, a write placed
// before the co-last one) is stored after the end of its parent's. The frames on the current
// path end at non-decreasing offsets, so everything past the end of depth d's witness belongs to
// deeper depths that are done once d starts another child.
//
// Indexed (LAPOR with wb_graphs = rf: WbGraphs, MutexLocks::appendable), the stack also says
// where in the witness of a depth the last node of a thread, the last write of a location a read
// may read and the last acquisition of a mutex are, by a binary search: per thread, location
// and mutex, the positions in the buffer of its entries, ascending (the buffer grows and
// shrinks at its end only, so each list does too). Scans of the witness made a read cost
// O(events) there, one long execution quadratic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

#include "porlab/explore/graph/ExecutionGraph.hpp"

namespace porlab::graph {

class WitnessStack {
  public:
    void reset(bool indexed = false) {
        buf_.clear();
        frames_.assign(1, Frame{});
        indexed_ = indexed;
        keys_.clear();
        byThread_.clear();
        byWrite_.clear();
        byAcquire_.clear();
    }
    // Valid until the next change of the stack.
    [[nodiscard]] std::span<const Ref> at(std::size_t d) const {
        const Frame& f = frames_[d];
        return {buf_.data() + f.begin, f.len};
    }
    // The witness of d+1: that of d, followed by node `a` of g if given.
    void extend(std::size_t d, const Ref* a, const ExecutionGraph& g) {
        const Frame f = frames_[d];
        cut(d);
        frame(d + 1) = Frame{f.begin, f.len};
        if (a) {
            push(*a, g);
            ++frame(d + 1).len;
        }
    }
    // The witness of d+1: `order` (nodes of g).
    void assign(std::size_t d, std::span<const Ref> order, const ExecutionGraph& g) {
        cut(d);
        frame(d + 1) = Frame{buf_.size(), order.size()};
        if (!indexed_) {
            buf_.insert(buf_.end(), order.begin(), order.end());
            return;
        }
        for (const Ref r : order) push(r, g);
    }
    [[nodiscard]] std::size_t capacity() const { return buf_.capacity(); }

    // Indexed: the position in the witness of depth d of its last node of thread t, of its last
    // write of loc that a read may read (not a placeholder, marker, faulted write or lock
    // event), of its last acquisition of mutex m (a lock, a successful trylock); -1: none.
    [[nodiscard]] std::ptrdiff_t lastOfThread(std::size_t d, ThreadId t) const {
        return last(byThread_, static_cast<std::size_t>(t), d);
    }
    [[nodiscard]] std::ptrdiff_t lastWriteOf(std::size_t d, LocId loc) const {
        return loc < 0 ? -1 : last(byWrite_, static_cast<std::size_t>(loc), d);
    }
    [[nodiscard]] std::ptrdiff_t lastAcquireOf(std::size_t d, LocId m) const {
        return m < 0 ? -1 : last(byAcquire_, static_cast<std::size_t>(m), d);
    }

  private:
    struct Frame {
        std::size_t begin = 0, len = 0;
    };
    struct Key {
        LocId write = kNoLoc, acquire = kNoLoc;
    };
    using Lists = std::vector<std::vector<std::size_t>>;
    void cut(std::size_t d) {
        const std::size_t end = frames_[d].begin + frames_[d].len;
        if (indexed_)
            while (buf_.size() > end) {
                const Key k = keys_.back();
                byThread_[static_cast<std::size_t>(buf_.back().t)].pop_back();
                if (k.write != kNoLoc) byWrite_[static_cast<std::size_t>(k.write)].pop_back();
                if (k.acquire != kNoLoc) byAcquire_[static_cast<std::size_t>(k.acquire)].pop_back();
                keys_.pop_back();
                buf_.pop_back();
            }
        else
            buf_.resize(end);
    }
    void push(Ref r, const ExecutionGraph& g) {
        const std::size_t p = buf_.size();
        buf_.push_back(r);
        if (!indexed_) return;
        const Node& n = g.at(r);
        Key k;
        if (n.ev.loc >= 0 && wbReadable(n, n.ev.loc)) k.write = n.ev.loc;
        if (!n.placeholder && acquires(n) && n.ev.loc >= 0) k.acquire = n.ev.loc;
        keys_.push_back(k);
        add(byThread_, static_cast<std::size_t>(r.t), p);
        if (k.write != kNoLoc) add(byWrite_, static_cast<std::size_t>(k.write), p);
        if (k.acquire != kNoLoc) add(byAcquire_, static_cast<std::size_t>(k.acquire), p);
    }
    static void add(Lists& l, std::size_t key, std::size_t p) {
        if (l.size() <= key) l.resize(key + 1);
        l[key].push_back(p);
    }
    [[nodiscard]] std::ptrdiff_t last(const Lists& l, std::size_t key, std::size_t d) const {
        if (key >= l.size()) return -1;
        const Frame& f = frames_[d];
        const auto& v = l[key];
        const auto it = std::lower_bound(v.begin(), v.end(), f.begin + f.len);  // past the frame
        if (it == v.begin()) return -1;
        const std::size_t p = *std::prev(it);
        return p < f.begin ? -1 : static_cast<std::ptrdiff_t>(p - f.begin);
    }
    Frame& frame(std::size_t d) {
        if (frames_.size() <= d) frames_.resize(d + 1);
        return frames_[d];
    }
    std::vector<Ref> buf_;
    std::vector<Frame> frames_;
    bool indexed_ = false;
    std::vector<Key> keys_;  // indexed: per entry of buf_
    Lists byThread_, byWrite_, byAcquire_;
};

}  // namespace porlab::graph
