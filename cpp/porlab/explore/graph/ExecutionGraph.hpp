// SPDX-License-Identifier: MIT
// Execution graphs for graph-based (GenMC-style) exploration: per-thread event sequences, a
// reads-from source for every read-like event, and the order in which events were added (stamps).
// Locks are read-modify-writes of their mutex (read 0, write 1), unlocks write 0. The
// exploration keeps a coherence order per location (co; CoChecker decides consistency in linear
// time); SCChecker decides whether the reads-from part alone has an SC witness (exact search),
// which is what reads-from classes need.
#pragma once

#include <cassert>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "porlab/core/Conflict.hpp"
#include "porlab/core/Event.hpp"

namespace porlab::graph {

// A node of the graph: thread t, position i. t == kInitThread stands for the initial write of a
// location.
struct Ref {
    std::int32_t t = -1;
    std::int32_t i = 0;
    friend bool operator==(const Ref&, const Ref&) = default;
};
inline constexpr std::int32_t kInitThread = -1;
inline constexpr Ref kInitRef{kInitThread, 0};

struct Node {
    Event ev;                 // the event as executed (rval = value of its source)
    Ref rf = kInitRef;        // read-like events: the write read from
    std::uint64_t stamp = 0;  // when the node was added (the graph's addition order)
    // When its write was added: a read-modify-write revisited by a later write has its write
    // part re-added after that write (TruSt adds the two parts separately).
    std::uint64_t wstamp = 0;
    Value casWval = 0;         // CAS: the value written if the CAS succeeds
    bool placeholder = false;  // a lock/await left blocked: reads "the final value" (no source)
    // SAVER: a zne marker (ev: an AssumeBlock with cause Zne, at the decrement's location) in
    // place of a canceling decrement; rf is the increment it cancels. It blocks its thread.
    bool zne = false;
    // LAPOR (mutex mode): pthread_mutex_trylock, a CAS on a mutex, out of co like the locks.
    // CasSuccess acquires the mutex (a lock, no source); CasFailure observes it held: its rf is
    // the acquire (lock or successful trylock) whose critical section it lies in.
    bool trylock = false;
    // LAPOR (wb_graphs = rf): a plain write that runs after a kill of its location (and
    // faults there: its thread stops). A witness has it right after such a kill; nothing reads it.
    bool faulted = false;
};

[[nodiscard]] constexpr bool isRmwLike(EventKind k) { return readsMemory(k) && writesMemory(k); }
// Read-like events whose value is constrained (a source must satisfy the condition).
[[nodiscard]] constexpr bool hasCondition(EventKind k) {
    return k == EventKind::Lock || k == EventKind::Await || k == EventKind::XchgAwait;
}

// Mutex mode (LAPOR): does the node acquire its mutex (a lock, a successful trylock), or
// observe it held (a failed trylock)?
[[nodiscard]] constexpr bool acquires(const Node& n) {
    return n.ev.kind == EventKind::Lock || (n.trylock && n.ev.kind == EventKind::CasSuccess);
}
[[nodiscard]] constexpr bool observesHeld(const Node& n) {
    return n.trylock && n.ev.kind == EventKind::CasFailure;
}
// Mutex mode: a lock, an unlock or a trylock (no reads-from, in no co).
[[nodiscard]] constexpr bool isLockEvent(const Node& n) {
    return n.ev.kind == EventKind::Lock || n.ev.kind == EventKind::Unlock || n.trylock;
}
// LAPOR with wb_graphs = rf: a write of loc that a read may read (not a placeholder, a zne
// marker, a faulted write or a lock event).
[[nodiscard]] constexpr bool wbReadable(const Node& n, LocId loc) {
    return !n.placeholder && !n.zne && !n.faulted && !isLockEvent(n) && writesMemory(n.ev.kind) &&
           n.ev.loc == loc;
}

// Event e (read-like) re-evaluated as if it read v: value read, CAS outcome, RMW written value.
[[nodiscard]] Event withReadValue(const Node& n, Value v);

class ExecutionGraph {
  public:
    // By ThreadId. Change the nodes through push/pop/truncate (and refreshView after changing a
    // node's edges): every node carries its porf view, which they keep up to date.
    std::vector<std::vector<Node>> threads;
    std::vector<Value> initial;        // initial value per location
    std::vector<std::vector<Ref>> co;  // per location: its writes in coherence order
    std::uint64_t nextStamp = 1;
    // SAVER: per thread, the positions where a zne marker was invalidated (Algorithm 2): the
    // real decrement runs there.
    std::vector<std::vector<std::int32_t>> zneDone;

    void init(int numThreads, std::vector<Value> initialValues);
    [[nodiscard]] const Node& at(Ref r) const { return threads[r.t][r.i]; }
    [[nodiscard]] Node& at(Ref r) { return threads[r.t][r.i]; }

    // Append node n to thread t (computing its porf view), remove the last node of t, or keep
    // the first n nodes of t.
    void push(ThreadId t, const Node& n);
    void pop(ThreadId t);
    void truncate(ThreadId t, std::size_t n);
    // Recompute the porf view of r after its edges changed (a revisit gives r a new source); r
    // must be the last node of its thread (nothing porf-after it).
    void refreshView(Ref r);
    // This graph becomes g restricted to the first keep[t] nodes of every thread (copying only
    // those: a revisit keeps a prefix of a graph that may be much longer).
    void assignPrefix(const ExecutionGraph& g, const std::vector<std::int32_t>& keep);

    // Thread t's acquisitions (locks, successful trylocks) minus its unlocks, and its open
    // critical sections (mutex, position of the acquisition) in order: an unlock closes the
    // latest open section of its mutex. Placeholders do not count. Kept up to date as nodes come
    // and go (LAPOR asks at every event; counting them cost O(events) each time).
    using Sections = std::vector<std::pair<LocId, std::int32_t>>;
    [[nodiscard]] std::int32_t lockBalance(ThreadId t) const {
        return lockBalance_[static_cast<std::size_t>(t)];
    }
    [[nodiscard]] const Sections& openSections(ThreadId t) const {
        return open_[static_cast<std::size_t>(t)];
    }
    [[nodiscard]] bool stuck(ThreadId t) const {
        return !threads[t].empty() && threads[t].back().placeholder;
    }
    // Value written by a source (init or node).
    [[nodiscard]] Value valueOf(Ref w, LocId loc) const {
        if (w.t != kInitThread) return at(w).ev.wval;
        return static_cast<std::size_t>(loc) < initial.size()
                   ? initial[static_cast<std::size_t>(loc)]
                   : 0;
    }
    // Locations discovered at run time (C programs) start at 0. (Called at every read and write:
    // the check inline, the growth out of line.)
    void ensureLoc(LocId loc) {
        const auto n = static_cast<std::size_t>(loc) + 1;
        if (n > co.size() || n > initial.size()) [[unlikely]]
            growLocs(n);
    }
    void growLocs(std::size_t n);
    // Position of write w in co[loc] (-1: init or absent).
    [[nodiscard]] int coIndex(Ref w, LocId loc) const;
    // The co-predecessor of a position (init when p == 0).
    [[nodiscard]] Ref coAt(LocId loc, int p) const {
        return p < 0 ? kInitRef : co[static_cast<std::size_t>(loc)][static_cast<std::size_t>(p)];
    }
    // Is the write at co position p+1 a read-modify-write reading the write at p (p = -1: init)?
    // Nothing may then be inserted between them.
    [[nodiscard]] bool rmwAfter(LocId loc, int p) const;
    [[nodiscard]] std::uint64_t stampOf(Ref w) const {
        return w.t == kInitThread ? 0 : at(w).stamp;
    }
    // Is node w (or init) a write of loc?
    [[nodiscard]] bool isWriteOf(Ref w, LocId loc) const {
        return w.t == kInitThread ||
               (!at(w).placeholder && writesMemory(at(w).ev.kind) && at(w).ev.loc == loc);
    }
    // The porf-prefix (po ∪ rf ∪ spawn ∪ join)* strictly before node a, as per-thread counts
    // (the prefix is po-closed, so a count per thread describes it). O(threads): every node keeps
    // its prefix (its view, a vector clock), computed when it is added from those of its direct
    // predecessors, as GenMC does; recomputing it from the graph made every event cost O(events).
    void porfPrefix(Ref a, std::vector<std::int32_t>& upto) const;
    // The porf-prefix of a node about to be appended to thread t, without edges of its own (its
    // program-order predecessor, or the spawn of t).
    void porfBeforeNext(ThreadId t, std::vector<std::int32_t>& upto) const;
    [[nodiscard]] std::string toString() const;
    // The positions in thread t of its nodes that write loc (writesMemory of their kind as
    // added or refreshed: placeholders, faulted writes and read-modify-writes included; lock
    // events at their mutex), ascending. Kept up to date as nodes come and go: LAPOR with
    // wb_graphs = rf finds a read's sources here (a scan of the graph made a read cost
    // O(events), one long execution quadratic).
    // (Kept only when turned on, by indexWrites: WbGraphs's graphs. It costs the other graph
    // explorers ~1% of their instructions.)
    [[nodiscard]] std::span<const std::int32_t> writesIn(LocId loc, ThreadId t) const {
        assert(indexWrites_);
        const auto l = static_cast<std::size_t>(loc);
        if (loc < 0 || l >= writes_.size() || static_cast<std::size_t>(t) >= writes_[l].size())
            return {};
        return writes_[l][static_cast<std::size_t>(t)];
    }

    // Turns writesIn's index on (the nodes there are are indexed) or off. A graph built by
    // assignPrefix has its source's.
    void indexWrites(bool on);

  private:
    // views_[t][i * width_ + u]: the nodes of thread u strictly porf-before node (t, i).
    std::vector<std::vector<std::int32_t>> views_;
    std::size_t width_ = 0;
    // By thread: the spawn node that started it, as last seen (checked before use: revisits
    // delete nodes).
    std::vector<Ref> spawner_;
    [[nodiscard]] const std::int32_t* viewOf(Ref r) const {
        return &views_[static_cast<std::size_t>(r.t)][static_cast<std::size_t>(r.i) * width_];
    }
    [[nodiscard]] Ref spawnerOf(ThreadId t) const;
    std::vector<std::int32_t> lockBalance_;
    std::vector<Sections> open_;
    // By thread, per unlock node: where the section it closed was in open_ (-1: none), and it.
    struct Closed {
        std::int32_t at = -1;
        std::pair<LocId, std::int32_t> section;
    };
    std::vector<std::vector<Closed>> closed_;
    // writesIn's index: by location, by thread.
    std::vector<std::vector<std::vector<std::int32_t>>> writes_;
    bool indexWrites_ = false;
    void writeAdded(ThreadId t, const Node& n, std::int32_t i);
    void writeRemoved(ThreadId t, const Node& n, std::int32_t i);
    void lockNodeAdded(ThreadId t, const Node& n, std::int32_t i);
    void lockNodeRemoved(ThreadId t, const Node& n);
    void recountLocks(ThreadId t);
    // Compute into out (width_ entries) the view of node (t, i) from its direct predecessors.
    void computeView(ThreadId t, std::int32_t i, std::int32_t* out) const;
    void joinView(std::int32_t* out, Ref p) const;
};

// SC consistency of a graph with its coherence order: acyclicity of po ∪ rf ∪ co ∪ fr ∪
// spawn/join, and atomicity (a read-modify-write directly follows its source in co, which the
// engine maintains). Placeholders are left out; with `placeholders`, each must also not be
// admitted by the co-last value of its location. Fills a witness (a topological order).
//
// Mutex mode (LAPOR: locks are not read-modify-writes, lock and unlock events carry no
// reads-from and are in no co): the witness must also keep critical sections of one mutex
// apart. That is a search (memoised on the executed downset): events other than locks are taken
// greedily, locks are branched on. `openEnded[t]` says thread t will get more events: its open
// critical section ends after its last event so far; otherwise an open critical section lasts
// to the end, and a lock placeholder (a lock blocked for good) needs its mutex held at the end.
// A successful trylock is a lock; a failed one lies inside the critical section of its source
// (edges; an open-ended section ends after the failed trylocks that observe it).
class CoChecker {
  public:
    bool check(const ExecutionGraph& g, bool placeholders, std::vector<Ref>& order);
    // memoryEdges = false: only program order, spawn/join and mutual exclusion (an order in
    // which the interpreter can replay the threads with their reads forced).
    bool checkMutex(const ExecutionGraph& g, bool placeholders, const std::vector<bool>& openEnded,
                    std::vector<Ref>& order, bool memoryEdges = true);
    // Mutex mode, a final graph without placeholders: a witness in `order` (program order,
    // spawn/join, rf/co/fr, critical sections of a mutex apart, open ones lasting to the end),
    // found greedily: of the threads' next nodes that can go, the earliest in `hint` (another
    // order of g's nodes, e.g. the witness g was extended with) goes. Linear in the nodes times
    // the threads. True implies checkMutex(g, true, no thread open-ended) would be; false says
    // nothing (checkMutex decides).
    bool greedyWitness(const ExecutionGraph& g, std::span<const Ref> hint, std::vector<Ref>& order);
    // Mutex mode: add the lock order mutual exclusion forces (lockOrder) before the search.
    bool lockOrderEdges = true;
    // lbRefuted: mutex-mode checks refuted by the lock order alone (lockOrder), no search.
    std::uint64_t checks = 0, mutexStates = 0, lbRefuted = 0;
    std::uint64_t greedyFound = 0;  // witnesses greedyWitness found
    // Asked every few dozen states of a search: true ends it (the check then fails; the caller
    // is stopping).
    std::function<bool()> interrupt;

  private:
    bool build(const ExecutionGraph& g, bool placeholders);
    void csr(std::size_t n);  // edges_ as successor lists (succStart_, succ_) and indeg_
    // Mutex mode: adds the edges mutual exclusion implies between closed critical sections
    // (LAPOR's lb), false if they make a cycle (no witness).
    bool lockOrder();
    bool search();
    void exec(std::int32_t v);
    void unexec();
    [[nodiscard]] bool endedOpen(ThreadId t) const;  // open-ended and all its events executed
    void release(std::size_t mutex);
    const ExecutionGraph* g_ = nullptr;
    std::vector<std::int32_t> off_, indeg_, succStart_, succ_, stack_, coPos_;
    std::vector<std::pair<std::int32_t, std::int32_t>> edges_;
    std::vector<Ref> refs_;
    // lockOrder: closed critical sections (mutex, thread, acquire and unlock as flat nodes)
    struct Section {
        LocId loc;
        std::int32_t thread, acq, unl;
    };
    std::vector<Section> sections_, contended_;
    std::vector<std::pair<LocId, std::int32_t>> openAcq_;
    std::vector<char> ordered_;
    std::vector<std::int32_t> bfs_, kahn_;
    std::vector<std::uint64_t> reach_;
    std::vector<std::int32_t> spawner_;  // greedyWitness: by thread, its spawn (flat)
    // mutex mode
    std::vector<std::int32_t> pos_, liveLen_, holder_, trail_;
    struct Released {
        std::int32_t loc, thread, acq;
    };
    std::vector<Released> released_;       // sections ended, per trail entry
    std::vector<std::int32_t> holderAcq_;  // by mutex: the acquire (node) of its holder
    std::vector<std::size_t> releasedMark_;
    std::vector<bool> openEnded_;
    std::vector<LocId> lockPlaceholders_;
    std::vector<std::int32_t> pendingObs_;  // by acquire node: failed trylocks not executed yet
    std::unordered_set<std::string> failed_;
    std::string keyBuf_;
    std::size_t live_ = 0;
    bool mutexMode_ = false;
    bool memoryEdges_ = true;
    bool interrupted_ = false;
    std::uint32_t polls_ = 0;
};

// Exact SC consistency of a porf-closed part of a graph (first lim[t] nodes of every thread;
// placeholders are skipped). A depth-first search over downsets: reads and non-memory events are
// taken greedily (they never hurt), writes are branched on; a write may only overwrite a write
// whose readers are all done, so the last write that still matters is a function of the downset
// and failed downsets are memoised exactly. With `placeholders`, the final state must also leave
// every placeholder blocked (its condition false on the final value of its location).
//
// A witness is an execution of the program, so a plain write never comes after a kill of its
// location (a free or a frame end: a write of kDeadValue): there it would fault, and the graph it
// witnesses has no fault. Reads-from does not fix that order (the write reads nothing), so
// without this a graph in which the write precedes the kill could get a witness in which it
// follows it, a canonical coherence no graph without the fault has, and its class was lost
// (write_after_free_read.c under rf-graph and lapor). A kill stays the last write of its location
// in such a witness (nothing reads it, nothing writes after it), so it is part of the memo key.
//
// Before the search, a saturation (SCSaturation.cpp): the order every witness extends, from
// program order, reads-from, spawn/join, coherence forced by reads-from and, in mutex mode,
// critical sections of one mutex kept apart (LAPOR's hb/wb/lb fixpoint, polynomial). A cycle
// there refutes the graph without a search; otherwise the search skips every write (acquire)
// that the order puts after an event not executed yet. Those subtrees hold no witness, so the
// search finds the same first witness, and the same finals, as without it (nww-lock-rr: time
// linear in its classes, not 3x per N). Its cost grows with the square of the events (a bit
// matrix): a larger graph is searched plainly first, and saturated only if that search grows
// past a budget of states (then it starts over), a much larger one never.
class SCChecker {
  public:
    // Returns true and fills `order` with a witness linearisation (nodes, in execution order).
    bool check(const ExecutionGraph& g, const std::vector<std::int32_t>& lim, bool placeholders,
               std::vector<Ref>& order);
    // Every final memory state (value per location) some witness linearisation reaches (with
    // `placeholders`: leaving every placeholder blocked). Rf does not fix the order of writes
    // nobody reads, so one graph may end in several memory states.
    // `orders` (if given): a witness linearisation per state, as check's `order`.
    void finals(const ExecutionGraph& g, const std::vector<std::int32_t>& lim, bool placeholders,
                std::vector<std::vector<Value>>& out,
                std::vector<std::vector<Ref>>* orders = nullptr);
    std::uint64_t searches = 0, states = 0;
    // LAPOR: locks, unlocks and successful trylocks carry no reads-from; a lock (a successful
    // trylock) needs its mutex free, a failed trylock goes inside its source's section.
    bool mutexLocks = false;
    // Asked every few dozen states: true ends the search (no witness; the caller is stopping).
    std::function<bool()> interrupt;
    // The saturation (false: the plain search only; an ablation, and the oracle of the tests):
    // first up to saturateFirstUpTo events, after budgetPerEvent * events + 16 states of the
    // plain search up to saturateUpTo events, never beyond. saturations: searches that
    // saturated; saturationRefuted: of those, the ones a cycle refuted without a search.
    // Adaptive (below saturateFirstUpTo): after `adaptAfter` saturations in a row that neither
    // refuted the graph nor left a search longer than the budget, the plain search goes first
    // again (within its budget), until a search exceeds it (plainFirst: such searches).
    bool saturation = true;
    std::size_t saturateFirstUpTo = 160, saturateUpTo = 4096;
    std::uint64_t budgetPerEvent = 2;
    std::uint32_t adaptAfter = 8;  // 0: always saturate first
    std::uint64_t saturations = 0, saturationRefuted = 0, plainFirst = 0;

  private:
    void setUp(const ExecutionGraph& g, const std::vector<std::int32_t>& lim, bool placeholders);
    // SCSaturation.cpp: the order (orderSucc_, predLeft_); false if it has a cycle.
    bool saturate();
    bool saturateBase();
    bool saturationRound(bool& changed);
    // a before b (false: a cycle). Already ordered: nothing to do (most calls, inline).
    bool orderEdge(std::int32_t a, std::int32_t b, bool& changed) {
        if (a != b && before(a, b)) return true;
        return addEdge(a, b, changed);
    }
    bool addEdge(std::int32_t a, std::int32_t b, bool& changed);
    [[nodiscard]] bool before(std::int32_t a, std::int32_t b) const {
        return (reach_[static_cast<std::size_t>(a) * words_ + static_cast<std::size_t>(b) / 64] >>
                (static_cast<std::size_t>(b) % 64)) &
               1U;
    }
    bool dfs();
    // (Defined in SCChecker.cpp, where the search calls them: inlined.)
    [[gnu::always_inline]] inline bool step(ThreadId t, bool writesAllowed);
    [[gnu::always_inline]] inline void undo();
    [[gnu::always_inline]] inline bool enabledNoWrite(ThreadId t) const;
    [[gnu::always_inline]] inline bool enabledWrite(ThreadId t) const;
    [[nodiscard]] bool isMutexEvent(const Node& n) const {
        return mutexLocks &&
               (n.ev.kind == EventKind::Lock || n.ev.kind == EventKind::Unlock || n.trylock);
    }
    [[nodiscard]] std::int32_t flat(Ref r) const {
        return r.t == kInitThread ? -1 : off_[r.t] + r.i;
    }
    void key();

    const ExecutionGraph* g_ = nullptr;
    std::vector<std::int32_t> lim_, pos_, off_;
    std::vector<std::int32_t> readersLeft_;  // by flat node id
    std::vector<std::int32_t> initReaders_;  // by location
    std::vector<std::int32_t> cur_;          // by location: flat id of last write, -1 = init
    std::vector<char> kill_;                 // by flat node id: writes kDeadValue
    std::vector<std::int32_t> holder_;  // mutex mode: by location, its acquire (flat), -1 = free
    std::vector<std::int32_t> pendingObs_;  // mutex mode: by acquire, failed trylocks left
    std::vector<std::pair<Ref, std::int32_t>> trail_;  // executed node, previous cur of its loc
    std::vector<std::pair<ThreadId, Ref>> spawnOf_;    // by thread: (parent, spawn node) or t=-1
    std::vector<LocId> watched_;                       // locations of placeholders (final check)
    std::vector<Ref> watchers_;
    // The states known to lead to no witness (by key: pos_, then cur_ of the watched locations;
    // keyLen_ ints each in failedKeys_), an open-addressing table of their indices (-1: free).
    std::vector<std::int32_t> failedKeys_, failedSlots_, keyBuf_;
    std::size_t keyLen_ = 0, failedCount_ = 0;
    [[nodiscard]] std::size_t keyHash() const;
    [[nodiscard]] bool failed(std::size_t h) const;
    void markFailed(std::size_t h);
    // By flat node (setUp, nodes within the limits): what the search needs of it.
    enum : std::uint16_t {
        kMutex = 1,     // isMutexEvent
        kAcquire = 2,   // a mutex event that acquires
        kObserves = 4,  // a mutex event that observes its mutex held
        kUnlock = 8,    // a mutex event that unlocks
        kWrites = 16,   // writesMemory
        kReads = 32,    // readsMemory
        kFaulted = 64,  // Node::faulted
        kJoin = 128,    // a join of thread aux
        kKill = 256,    // a memory write of kDeadValue
        kSpawn = 512,   // a spawn of thread aux
    };
    struct Info {
        LocId loc;
        std::int32_t rf, aux;  // rf: flat, -1 = init
        std::uint16_t flags;
    };
    std::vector<Info> info_;
    bool placeholders_ = false;
    bool enumerate_ = false;
    bool interrupted_ = false;
    // The saturation: reach_ (node x node bits: a before b in every witness), the edges it
    // added (by source, CSR), by node the sources of those not executed yet, the state budget.
    std::size_t words_ = 0;
    std::vector<std::uint64_t> reach_, pred_;       // pred_: reach_ transposed
    std::vector<std::uint64_t> predRow_, succRow_;  // addEdge's scratch
    std::vector<std::pair<std::int32_t, std::int32_t>> derived_;
    std::vector<std::int32_t> succStart_, succ_, predLeft_, indeg_, topo_;
    std::vector<std::vector<std::int32_t>> base_;  // by node: successors (po, rf, spawn, join)
    struct Section {
        LocId loc;
        std::int32_t thread, acq, unl;  // unl = -1: open to the end
    };
    std::vector<Section> sections_;
    // By mutex (words_ each): the unlocks of its sections; by unlock: its section; the sections
    // open to the end.
    std::vector<std::uint64_t> unlockMask_;
    std::vector<std::int32_t> sectionOf_, openSections_;
    std::vector<char> ruleless_;  // saturateBase's scratch: mutexes the pairing misreads,
    std::vector<std::pair<std::int32_t, std::int32_t>> observers_;  // (failed trylock, acquire),
    std::vector<std::pair<LocId, std::int32_t>> open_;              // a thread's open sections
    struct MemoryRead {
        std::int32_t read, source;  // flat nodes (source -1: the initial value)
        LocId loc;
    };
    std::vector<MemoryRead> memReads_;
    std::vector<std::uint64_t> writeMask_;  // by location (words_ each): its writes (bits)
    std::uint64_t stateBudget_ = 0, budgetStart_ = 0;
    bool pruning_ = false;
    bool plainFirst_ = false;       // (adaptive) the plain search goes first
    std::uint32_t uselessRun_ = 0;  // saturations in a row that the plain search did not need
    bool overBudget_ = false;
    std::uint32_t polls_ = 0;
    std::vector<std::vector<Value>>* finals_ = nullptr;
    std::vector<std::vector<Ref>>* finalOrders_ = nullptr;
};

}  // namespace porlab::graph
