// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/TaskCodec.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "porlab/core/Errors.hpp"

namespace porlab::graph {

namespace {

constexpr char kMagic[4] = {'P', 'L', 'T', 'K'};
constexpr std::uint8_t kPlaceholder = 1, kZne = 2, kTrylock = 4, kFaulted = 8;

bool isCas(EventKind k) { return k == EventKind::CasSuccess || k == EventKind::CasFailure; }
bool hasOther(EventKind k) { return k == EventKind::Spawn || k == EventKind::Join; }

class Writer {
  public:
    void u(std::uint64_t v) {
        while (v >= 0x80) {
            out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
            v >>= 7;
        }
        out_.push_back(static_cast<char>(v));
    }
    void s(std::int64_t v) {
        u((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
    }
    void str(const std::string& x) {
        u(x.size());
        out_ += x;
    }
    void raw(const char* p, std::size_t n) { out_.append(p, n); }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

class Reader {
  public:
    explicit Reader(const std::string& in) : in_(in) {}
    std::uint64_t u() {
        std::uint64_t v = 0;
        for (unsigned shift = 0; shift < 64; shift += 7) {
            if (pos_ >= in_.size()) bad("truncated");
            const auto b = static_cast<std::uint8_t>(in_[pos_++]);
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        bad("varint too long");
    }
    std::int64_t s() {
        const std::uint64_t z = u();
        return static_cast<std::int64_t>((z >> 1) ^ (~(z & 1) + 1));
    }
    // A count of things each at least one byte long: bounded by what is left.
    std::size_t count() {
        const std::uint64_t n = u();
        if (n > in_.size() - pos_) bad("count beyond the end");
        return static_cast<std::size_t>(n);
    }
    std::string str() {
        const std::size_t n = count();
        std::string x = in_.substr(pos_, n);
        pos_ += n;
        return x;
    }
    bool magic() {
        if (in_.size() < 4 || !std::equal(kMagic, kMagic + 4, in_.begin())) return false;
        pos_ = 4;
        return true;
    }
    [[noreturn]] static void bad(const std::string& what) {
        throw InputError("task: not a porlab task (" + what + ")");
    }

  private:
    const std::string& in_;
    std::size_t pos_ = 0;
};

void writeHeader(Writer& w, const TaskHeader& h) {
    w.raw(kMagic, 4);
    w.u(kTaskFormatVersion);
    w.u(h.programId);
    w.str(h.explorer);
    w.u(h.root ? 1 : 0);
}

TaskHeader readHeader(Reader& r) {
    if (!r.magic()) Reader::bad("no magic");
    const std::uint64_t v = r.u();
    if (v != kTaskFormatVersion)
        throw InputError("task: format version " + std::to_string(v) + ", this porlab reads " +
                         std::to_string(kTaskFormatVersion));
    TaskHeader h;
    h.programId = r.u();
    h.explorer = r.str();
    h.root = r.u() != 0;
    return h;
}

// The encoded form of a node.
struct EncNode {
    EventKind kind = EventKind::Read;
    std::uint8_t flags = 0;
    std::uint64_t stamp = 0, wstamp = 0;
    Ref rf = kInitRef;
    Value casWval = 0, tryRval = 0;
    std::int32_t other = -1;  // spawn / join: the other thread (encoder's number)
};

}  // namespace

std::string encodeTask(const TaskHeader& h, const ExecutionGraph& g, std::span<const Ref> order) {
    Writer w;
    writeHeader(w, h);
    if (h.root) return w.take();
    w.u(g.threads.size());
    w.u(g.nextStamp);
    for (const auto& th : g.threads) {
        w.u(th.size());
        for (const Node& n : th) {
            w.u(static_cast<std::uint64_t>(n.ev.kind));
            const std::uint8_t flags = (n.placeholder ? kPlaceholder : 0) | (n.zne ? kZne : 0) |
                                       (n.trylock ? kTrylock : 0) | (n.faulted ? kFaulted : 0);
            w.u(flags);
            w.u(n.stamp);
            w.s(static_cast<std::int64_t>(n.wstamp) - static_cast<std::int64_t>(n.stamp));
            w.u(static_cast<std::uint64_t>(n.rf.t + 1));
            w.u(static_cast<std::uint64_t>(n.rf.i));
            if (isCas(n.ev.kind)) w.s(n.casWval);
            if (n.trylock) w.s(n.ev.rval);
            if (hasOther(n.ev.kind)) w.s(n.ev.aux);
        }
    }
    std::size_t used = 0;
    for (const auto& c : g.co) used += c.empty() ? 0 : 1;
    w.u(used);
    for (const auto& c : g.co) {
        if (c.empty()) continue;
        w.u(c.size());
        for (const Ref r : c) {
            w.u(static_cast<std::uint64_t>(r.t));
            w.u(static_cast<std::uint64_t>(r.i));
        }
    }
    for (std::size_t t = 0; t < g.threads.size(); ++t) {
        const auto& z = t < g.zneDone.size() ? g.zneDone[t] : std::vector<std::int32_t>{};
        w.u(z.size());
        for (const std::int32_t i : z) w.u(static_cast<std::uint64_t>(i));
    }
    w.u(order.size());
    for (const Ref r : order) {
        w.u(static_cast<std::uint64_t>(r.t));
        w.u(static_cast<std::uint64_t>(r.i));
    }
    return w.take();
}

std::string encodeRootTask(std::uint64_t programId, const std::string& explorer) {
    return encodeTask(TaskHeader{programId, explorer, true}, ExecutionGraph{}, {});
}

TaskHeader taskHeader(const std::string& bytes) {
    Reader r(bytes);
    return readHeader(r);
}

void decodeTask(const Program& p, const std::string& bytes, std::uint64_t programId,
                const std::string& explorer, bool relaxedLocks, ExecutionGraph& g,
                std::vector<Ref>& order) {
    Reader r(bytes);
    const TaskHeader h = readHeader(r);
    if (h.programId != programId)
        throw InputError("task: made for another program (program id differs)");
    if (h.explorer != explorer)
        throw InputError("task: made for explorer '" + h.explorer + "', not '" + explorer + "'");
    if (h.root) throw InputError("task: the root task has no graph (run it with explore)");

    const std::size_t nThreads = r.count();
    const std::uint64_t nextStamp = r.u();
    std::vector<std::vector<EncNode>> enc(nThreads);
    auto readRef = [&](std::int32_t minThread) {
        Ref x;
        x.t = static_cast<std::int32_t>(r.u()) + minThread;
        x.i = static_cast<std::int32_t>(r.u());
        return x;
    };
    for (auto& th : enc) {
        th.resize(r.count());
        for (EncNode& n : th) {
            const std::uint64_t k = r.u();
            if (k > 255) Reader::bad("event kind");
            n.kind = static_cast<EventKind>(k);
            n.flags = static_cast<std::uint8_t>(r.u());
            n.stamp = r.u();
            n.wstamp = static_cast<std::uint64_t>(static_cast<std::int64_t>(n.stamp) + r.s());
            n.rf = readRef(-1);
            if (isCas(n.kind)) n.casWval = r.s();
            if (n.flags & kTrylock) n.tryRval = r.s();
            if (hasOther(n.kind)) n.other = static_cast<std::int32_t>(r.s());
        }
    }
    auto valid = [&](Ref x) {
        return x.t >= 0 && static_cast<std::size_t>(x.t) < nThreads && x.i >= 0 &&
               static_cast<std::size_t>(x.i) < enc[static_cast<std::size_t>(x.t)].size();
    };
    std::vector<std::vector<Ref>> co(r.count());
    for (auto& c : co) {
        c.resize(r.count());
        for (Ref& x : c) {
            x = readRef(0);
            if (!valid(x)) Reader::bad("co entry");
        }
        if (c.empty()) Reader::bad("empty co");
    }
    std::vector<std::vector<std::int32_t>> zneDone(nThreads);
    for (auto& z : zneDone) {
        z.resize(r.count());
        for (auto& i : z) i = static_cast<std::int32_t>(r.u());
    }
    std::vector<Ref> encOrder(r.count());
    for (Ref& x : encOrder) {
        x = readRef(0);
        if (!valid(x)) Reader::bad("order entry");
    }

    // Replay the witness on a fresh execution of p: every event, location, thread and value in
    // p's numbering.
    const std::unique_ptr<Execution> exec = p.newExecution();
    exec->setRelaxedLocks(relaxedLocks);
    (void)exec->reset();
    const std::vector<Value>& initial = p.info()->initialValues;
    auto initialOf = [&](LocId loc) {
        return loc >= 0 && static_cast<std::size_t>(loc) < initial.size()
                   ? initial[static_cast<std::size_t>(loc)]
                   : Value{0};
    };
    // Threads started by a spawn of the graph get the decoder's number at the spawn; the others
    // (main, a builder program's threads started with the program) have fixed numbers.
    std::vector<ThreadId> tmap(nThreads, -1);
    std::vector<bool> spawned(nThreads, false);
    for (const auto& th : enc)
        for (const EncNode& n : th)
            if (n.kind == EventKind::Spawn && n.other >= 0 &&
                static_cast<std::size_t>(n.other) < nThreads)
                spawned[static_cast<std::size_t>(n.other)] = true;
    for (std::size_t t = 0; t < nThreads; ++t)
        if (!spawned[t]) tmap[t] = static_cast<ThreadId>(t);
    std::vector<std::vector<Node>> dec(nThreads);
    auto mismatch = [](const std::string& what) -> InputError {
        return InputError("task: the program does not replay it (" + what +
                          "): another program or porlab version?");
    };
    Snapshot snap;
    for (const Ref x : encOrder) {
        const auto t = static_cast<std::size_t>(x.t);
        const EncNode& e = enc[t][static_cast<std::size_t>(x.i)];
        if (static_cast<std::size_t>(x.i) != dec[t].size()) throw mismatch("order");
        if (e.flags & kPlaceholder) throw mismatch("placeholder in the order");
        const ThreadId td = tmap[t];
        if (td < 0 || td >= exec->maxThreads() || exec->status(td) != ThreadStatus::Ready)
            throw mismatch("thread not ready");
        Node n;
        n.stamp = e.stamp;
        n.wstamp = e.wstamp;
        n.placeholder = false;
        n.zne = (e.flags & kZne) != 0;
        n.trylock = (e.flags & kTrylock) != 0;
        n.faulted = (e.flags & kFaulted) != 0;  // (LAPOR wb_graphs=rf: a write after a kill)
        if (e.rf.t != kInitThread) {
            if (!valid(e.rf)) throw mismatch("source");
            n.rf = Ref{tmap[static_cast<std::size_t>(e.rf.t)], e.rf.i};
        }
        const Event pend = exec->pending(td);
        if (n.zne) {
            auto ev = exec->blockThread(td, BlockCause::Zne);
            if (ev.empty()) throw mismatch("zne");
            n.ev = ev[0];
            n.ev.loc = pend.loc;
        } else {
            std::optional<Value> forced;
            if (n.trylock) {
                forced = e.tryRval;
            } else if (readsMemory(e.kind)) {
                if (e.rf.t == kInitThread) {
                    forced = initialOf(pend.loc);
                } else {
                    const auto& src = dec[static_cast<std::size_t>(e.rf.t)];
                    if (static_cast<std::size_t>(e.rf.i) >= src.size())
                        throw mismatch("source after its reader");
                    forced = src[static_cast<std::size_t>(e.rf.i)].ev.wval;
                }
            }
            n.casWval = e.casWval;
            if (isCas(pend.kind)) {  // as GraphExplorer::addRead: the successful CAS's value
                exec->save(snap);
                auto ev = exec->step(td, pend.operand);
                n.casWval = ev[0].wval;
                exec->restore(snap);
            }
            auto ev = exec->step(td, forced);
            if (ev.empty() || ev[0].kind != e.kind) throw mismatch("event kind");
            n.ev = ev[0];
        }
        if (hasOther(e.kind)) {
            if (e.other < 0 || static_cast<std::size_t>(e.other) >= nThreads)
                throw mismatch("thread");
            auto& m = tmap[static_cast<std::size_t>(e.other)];
            if (e.kind == EventKind::Spawn) m = n.ev.aux;
            if (m != n.ev.aux) throw mismatch("join");
        }
        dec[t].push_back(n);
    }
    // Placeholders (locks and awaits blocked for good) are not in the witness: the last node of
    // their thread, whose pending event they are.
    for (std::size_t t = 0; t < nThreads; ++t) {
        if (dec[t].size() == enc[t].size()) continue;
        const EncNode& e = enc[t][dec[t].size()];
        if (dec[t].size() + 1 != enc[t].size() || !(e.flags & kPlaceholder))
            throw mismatch("nodes outside the witness");
        const ThreadId td = tmap[t];
        if (td < 0 || exec->status(td) != ThreadStatus::Ready)
            throw mismatch("placeholder of thread " + std::to_string(t) + " -> " +
                           std::to_string(td) + ", status " +
                           std::to_string(td < 0 ? -1 : static_cast<int>(exec->status(td))));
        Node n;
        n.ev = exec->pending(td);
        n.placeholder = true;
        if (e.rf.t != kInitThread) {  // LAPOR: the section a blocked lock waits on
            if (!valid(e.rf)) throw mismatch("source");
            n.rf = Ref{tmap[static_cast<std::size_t>(e.rf.t)], e.rf.i};
        }
        n.stamp = e.stamp;
        n.wstamp = e.wstamp;
        n.casWval = e.casWval;
        dec[t].push_back(n);
    }

    g.init(exec->maxThreads(), initial);
    g.nextStamp = nextStamp;
    std::vector<std::size_t> pushed(nThreads, 0);
    auto pushNode = [&](std::size_t t) {
        const Node& n = dec[t][pushed[t]++];
        if (n.ev.loc >= 0) g.ensureLoc(n.ev.loc);
        g.push(tmap[t], n);
    };
    for (const Ref x : encOrder) pushNode(static_cast<std::size_t>(x.t));
    for (std::size_t t = 0; t < nThreads; ++t)
        if (pushed[t] < dec[t].size()) pushNode(t);
    for (const auto& c : co) {
        const LocId loc =
            dec[static_cast<std::size_t>(c[0].t)][static_cast<std::size_t>(c[0].i)].ev.loc;
        if (loc < 0) throw mismatch("co location");
        auto& out = g.co[static_cast<std::size_t>(loc)];
        if (!out.empty()) throw mismatch("co twice");
        for (const Ref x : c) {
            if (dec[static_cast<std::size_t>(x.t)][static_cast<std::size_t>(x.i)].ev.loc != loc)
                throw mismatch("co location");
            out.push_back(Ref{tmap[static_cast<std::size_t>(x.t)], x.i});
        }
    }
    for (std::size_t t = 0; t < nThreads; ++t) {
        if (zneDone[t].empty()) continue;
        if (tmap[t] < 0) throw mismatch("zne thread");
        g.zneDone[static_cast<std::size_t>(tmap[t])] = zneDone[t];
    }
    order.clear();
    for (const Ref x : encOrder) order.push_back(Ref{tmap[static_cast<std::size_t>(x.t)], x.i});
}

void portablePrefixHash(const ExecutionGraph& g, const std::vector<std::int32_t>& upto,
                        std::uint64_t& h1, std::uint64_t& h2) {
    auto mix = [](std::uint64_t a, std::uint64_t b) {
        std::uint64_t x = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
        x ^= x >> 31;
        x *= 0xbf58476d1ce4e5b9ULL;
        return x ^ (x >> 29);
    };
    const std::size_t T = g.threads.size();
    // Threads no spawn of g started (main, a builder program's threads started with the
    // program) have fixed numbers: named by them. The others by their spawn.
    std::vector<std::uint64_t> name(T, 0);
    std::vector<bool> known(T, true);
    for (const auto& th : g.threads)
        for (const Node& n : th)
            if (n.ev.kind == EventKind::Spawn && n.ev.aux >= 0 &&
                static_cast<std::size_t>(n.ev.aux) < T)
                known[static_cast<std::size_t>(n.ev.aux)] = false;
    for (std::size_t t = 0; t < T; ++t) name[t] = mix(0x5eed, t);
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t t = 0; t < T; ++t) {
            if (!known[t]) continue;
            for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
                const Node& n = g.threads[t][i];
                if (n.ev.kind != EventKind::Spawn || n.ev.aux < 0) continue;
                const auto c = static_cast<std::size_t>(n.ev.aux);
                if (c >= T || known[c]) continue;
                name[c] = mix(name[t], i + 1);
                known[c] = true;
                changed = true;
            }
        }
    }
    auto refName = [&](Ref x) {
        return x.t == kInitThread
                   ? std::uint64_t{0}
                   : mix(name[static_cast<std::size_t>(x.t)], static_cast<std::uint64_t>(x.i) + 1);
    };
    std::vector<std::size_t> byName;
    for (std::size_t t = 0; t < T; ++t)
        if (upto[t] > 0) byName.push_back(t);
    std::sort(byName.begin(), byName.end(),
              [&](std::size_t a, std::size_t b) { return name[a] < name[b]; });
    h1 = 0x243f6a8885a308d3ULL;
    h2 = 0x13198a2e03707344ULL;
    auto add = [&](std::uint64_t w) {
        h1 = (h1 ^ w) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
        h2 = ((h2 + w) * 0xd6e8feb86659fd93ULL) ^ (h2 >> 29);
    };
    for (const std::size_t t : byName) {
        add(name[t]);
        add(static_cast<std::uint64_t>(upto[t]));
        for (std::int32_t i = 0; i < upto[t]; ++i) {
            const Node& n = g.threads[t][static_cast<std::size_t>(i)];
            add((static_cast<std::uint64_t>(n.ev.kind) << 8) | (n.placeholder ? 1U : 0U) |
                (n.zne ? 2U : 0U) | (n.trylock ? 4U : 0U));
            add(refName(n.rf));
        }
    }
}

void TaskChannel::want(std::int64_t n, bool sticky) {
    std::lock_guard lk(mu_);
    wanted_ = n;
    sticky_ = sticky;
}

std::vector<std::tuple<std::size_t, double, std::string>> TaskChannel::drain() {
    std::lock_guard lk(mu_);
    return std::exchange(out_, {});
}

std::int64_t TaskChannel::wanted() {
    std::lock_guard lk(mu_);
    return wanted_;
}

bool TaskChannel::sticky() {
    std::lock_guard lk(mu_);
    return sticky_;
}

std::int64_t TaskChannel::takeWanted() {
    std::lock_guard lk(mu_);
    return sticky_ ? wanted_ : std::exchange(wanted_, 0);
}

void TaskChannel::handOut(std::size_t seq, double cpu, const std::string& task) {
    std::lock_guard lk(mu_);
    out_.emplace_back(seq, cpu, task);
}

}  // namespace porlab::graph
