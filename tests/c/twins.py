"""Builder twins of the C programs in this directory (for the paper examples with three or more
threads too: the example's threads plus the C program's main that spawns them).

Each function builds, with porlab's Python builder, a program with the same visible events as
the C program of the same name (same threads, same accesses in the same order, main included),
so that the builder — an independent front end (the builder's spec and its lowering, not clang
and the LLVM lowering; both run on porlab's one interpreter) — gives the expected counts. The
corpus runner (tests/python/test_c_corpus.py) asserts that the C program and its twin have equal
counts under every explorer and equal partition sizes. Load one with
``porlab.load_program("tests/c/twins.py", name="mutex_counter")``.

Loop bounds: ``--unroll N`` lets a C loop visit its header N times per entry (N - 1 jumps back),
a builder ``loop(bound=B)`` starts at most B iterations, so a C loop under ``--unroll N`` is a
builder loop with bound N.
"""

from __future__ import annotations

import runpy
from collections.abc import Callable
from pathlib import Path

from porlab import Program

_TWINS: dict[str, Callable[..., Program]] = {}


def twin(fn: Callable[..., Program]) -> Callable[..., Program]:
    _TWINS[fn.__name__] = fn
    return fn


def build(name: str, **params: object) -> Program:
    """The twin of tests/c/<name>.c (``params`` scale it, like the C program's -D options)."""
    if name not in _TWINS:
        raise ValueError(f"no builder twin named {name!r} (known: {', '.join(sorted(_TWINS))})")
    return _TWINS[name](**params)


def _incr(t, v) -> None:
    t.store(v, t.load(v) + 1)


@twin
def mutex_counter() -> Program:
    p = Program("mutex_counter")
    main = p.thread("main")  # thread 0, as in C
    m = p.mutex("m")
    count = p.var("count")
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for w in ws:
        w.lock(m)
        _incr(w, count)
        w.unlock(m)
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        t.assert_(t.load(count) == 2)
    return p


@twin
def racy_counter() -> Program:
    p = Program("racy_counter")
    main = p.thread("main")  # thread 0, as in C
    count = p.var("count")
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for w in ws:
        _incr(w, count)
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        t.assert_(t.load(count) == 2)
    return p


@twin
def unlock_not_held() -> Program:
    p = Program("unlock_not_held")
    main = p.thread("main")  # thread 0, as in C
    m = p.mutex("m")
    x = p.var("x")
    t1 = p.thread("t1", start=False)
    t1.unlock(m)
    with main as t:
        t.spawn(t1)
        t.lock(m)
        t.store(x, 1)
        t.unlock(m)
    return p


def _two_workers(name: str, body: Callable, final: int = 2, var: str = "count") -> Program:
    """main spawns two workers running ``body(t, p_vars)``, joins both, asserts var == final."""
    p = Program(name)
    main = p.thread("main")  # thread 0, as in C
    shared: dict = {}
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for w in ws:
        body(p, w, shared)
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        t.assert_(t.load(shared[var]) == final)
    return p


def _vars(p: Program, shared: dict, *names: str) -> list:
    for n in names:
        if n not in shared:
            shared[n] = p.var(n)
    return [shared[n] for n in names]


@twin
def cas_counter() -> Program:
    def body(p, w, sh):
        (count,) = _vars(p, sh, "count")
        with w.loop(bound=2) as lp:  # --unroll 2
            old = w.load(count)
            ok = w.cas(count, old, old + 1)
            lp.break_if(ok)
    return _two_workers("cas_counter", body)


@twin
def faa_counter() -> Program:
    p = Program("faa_counter")
    main = p.thread("main")  # thread 0, as in C
    count = p.var("count")
    ws = [p.thread(f"w{i}", start=False) for i in range(3)]
    for w in ws:
        w.fetch_add(count, 1)
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        t.assert_(t.load(count) == 3)
    return p


@twin
def faa_tickets() -> Program:
    p = Program("faa_tickets")
    main = p.thread("main")  # thread 0, as in C
    nxt = p.var("next")
    slot = p.array("slot", 2)
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for w in ws:
        tk = w.fetch_add(nxt, 1)
        w.store(slot[tk], 1)
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        a = t.load(slot[0])
        # C's && does not read slot[1] when slot[0] != 1
        ok = t.let(0)
        with t.if_(a == 1):
            t.set(ok, t.load(slot[1]) == 1)
        t.assert_(ok)
    return p


@twin
def spinlock_tas() -> Program:
    def body(p, w, sh):
        lock, count = _vars(p, sh, "lock", "count")
        with w.loop(bound=3) as lp:  # --unroll 3
            r = w.exchange(lock, 1)
            lp.break_if(r == 0)
        _incr(w, count)
        w.store(lock, 0)
    return _two_workers("spinlock_tas", body)


@twin
def ticket_lock() -> Program:
    def body(p, w, sh):
        nxt, serving, count = _vars(p, sh, "next", "serving", "count")
        my = w.fetch_add(nxt, 1)
        with w.loop(bound=3) as lp:  # --unroll 3
            s = w.load(serving)
            lp.break_if(s == my)
        _incr(w, count)
        w.store(serving, my + 1)
    return _two_workers("ticket_lock", body)


@twin
def ttas_lock() -> Program:
    def body(p, w, sh):
        lock, count = _vars(p, sh, "lock", "count")
        with w.loop(bound=2) as outer:  # for (;;), --unroll 2
            with w.loop(bound=2) as inner:  # while (lock != 0), --unroll 2
                v = w.load(lock)
                inner.break_if(v == 0)
            r = w.exchange(lock, 1)
            outer.break_if(r == 0)
        _incr(w, count)
        w.store(lock, 0)
    return _two_workers("ttas_lock", body)


@twin
def await_lock() -> Program:
    def body(p, w, sh):
        lock, count = _vars(p, sh, "lock", "count")
        w.xchg_await(lock, "==", 0, 1)
        _incr(w, count)
        w.store(lock, 0)
    return _two_workers("await_lock", body)


@twin
def await_conds() -> Program:
    p = Program("await_conds")
    main = p.thread("main")  # thread 0, as in C
    x = p.var("x")
    y = p.var("y", -1)
    a = p.thread("a", start=False)
    v = a.await_(x, "u>", 1)
    a.assert_(v > 1)
    w = a.await_(x, "u<=", 3)
    a.assert_(w <= 3)
    b = p.thread("b", start=False)
    v = b.await_(y, "<", 0)
    b.assert_(v < 0)
    w = b.await_(x, ">=", 2)
    b.assert_(w >= 2)
    with main as t:
        t.spawn(a)
        t.spawn(b)
        t.store(x, 1)
        t.store(x, 2)
        t.store(y, 1)
        t.store(x, 3)
        z = t.await_(x, "!=", 0)
        t.assert_(z == 3)
    return p


@twin
def thread_tree() -> Program:
    p = Program("thread_tree")
    main = p.thread("main")  # thread 0, as in C
    leaf = p.array("leaf", 2)
    total = p.var("total")
    a = p.thread("A", start=False)
    leaves = [p.thread(f"leaf{i}", start=False) for i in range(2)]
    for i, lt in enumerate(leaves):
        lt.store(leaf[i], i + 1)
    for lt in leaves:
        a.spawn(lt)
    for lt in leaves:
        a.join(lt)
    a.store(total, a.load(leaf[0]) + a.load(leaf[1]))
    with main as t:
        t.spawn(a)
        t.join(a)
        t.assert_(t.load(total) == 3)
    return p


@twin
def thread_array(n: int = 3) -> Program:
    p = Program("thread_array")
    main = p.thread("main")  # thread 0, as in C
    m = p.mutex("m")
    total = p.var("sum")
    done = p.array("done", n)
    ws = [p.thread(f"w{i}", start=False) for i in range(n)]
    for i, w in enumerate(ws):
        w.lock(m)
        w.store(total, w.load(total) + i + 1)
        w.unlock(m)
        w.store(done[i], 1)
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        t.assert_(t.load(total) == n * (n + 1) // 2)
    return p


@twin
def malloc_buffer() -> Program:
    p = Program("malloc_buffer")
    main = p.thread("main")  # thread 0, as in C
    buf = p.array("buf", 2)
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for i, w in enumerate(ws):
        w.store(buf[i], 10 + i)
        w.load(buf[1 - i])
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        a = t.load(buf[0])
        ok = t.let(0)
        with t.if_(a == 10):
            t.set(ok, t.load(buf[1]) == 11)
        t.assert_(ok)
    return p


@twin
def struct_fields() -> Program:
    p = Program("struct_fields")
    main = p.thread("main")  # thread 0, as in C
    fa, fb = p.vars("s.a", "s.b")
    t1 = p.thread("t1", start=False)
    t1.store(fa, 1)
    t1.load(fb)
    with main as t:
        t.spawn(t1)
        t.store(fb, 2)
        t.load(fa)
        t.join(t1)
        # (the C program's first assertion combines the two reads: no event, always true)
        t.assert_(t.load(fa) + t.load(fb) == 3)
    return p


@twin
def pointer_arith() -> Program:
    p = Program("pointer_arith")
    main = p.thread("main")  # thread 0, as in C
    a = p.array("a", 4)
    w = p.thread("writer", start=False)
    for i in range(4):
        w.store(a[i], 1)
    r = p.thread("reader", start=False)
    for i in reversed(range(4)):
        r.load(a[i])
    with main as t:
        t.spawn(w)
        t.spawn(r)
        t.join(w)
        t.join(r)
    return p


@twin
def function_pointers() -> Program:
    p = Program("function_pointers")
    main = p.thread("main")  # thread 0, as in C
    x = p.var("x", 1)
    t0 = p.thread("t0", start=False)
    t0.store(x, t0.load(x) + 1)
    t0.store(x, t0.load(x) * 2)
    t1 = p.thread("t1", start=False)
    t1.store(x, t1.load(x) * 2)
    t1.store(x, t1.load(x) + 1)
    with main as t:
        t.spawn(t0)
        t.spawn(t1)
        t.join(t0)
        t.join(t1)
        t.load(x)
    return p


@twin
def escaped_stack() -> Program:
    p = Program("escaped_stack")
    main = p.thread("main")  # thread 0, as in C
    flag, g = p.vars("flag", "g")
    t1 = p.thread("t1", start=False)
    t1.store(flag, 10)
    t1.load(g)
    with main as t:
        t.store(flag, 0)
        t.spawn(t1)
        t.store(g, 1)
        t.load(flag)
        t.join(t1)
    return p


@twin
def thread_exit() -> Program:
    p = Program("thread_exit")
    main = p.thread("main")  # thread 0, as in C
    x, y = p.vars("x", "y")
    t1 = p.thread("t1", start=False)
    t1.store(x, 7)
    with main as t:
        t.spawn(t1)
        t.load(x)
        t.join(t1)
        t.assert_(t.load(y) == 0)
    return p


@twin
def assume_filter() -> Program:
    p = Program("assume_filter")
    main = p.thread("main")  # thread 0, as in C
    x = p.var("x")
    t1 = p.thread("t1", start=False)
    a = t1.load(x)
    t1.assume(a != 1)
    t1.assert_(a != 1)
    with main as t:
        t.spawn(t1)
        t.store(x, 1)
        t.store(x, 2)
    return p


@twin
def reach_error() -> Program:
    p = Program("reach_error")
    main = p.thread("main")  # thread 0, as in C
    data, flag = p.vars("data", "flag")
    r = p.thread("reader", start=False)
    f = r.load(flag)
    with r.if_(f == 1):
        d = r.load(data)
        with r.if_(d == 0):
            r.fail()
    with main as t:
        t.spawn(r)
        t.store(flag, 1)
        t.store(data, 42)
    return p


@twin
def nondet_default() -> Program:
    p = Program("nondet_default")
    main = p.thread("main")  # thread 0, as in C
    x = p.var("x")
    t1 = p.thread("t1", start=False)
    t1.store(x, 1)
    with main as t:
        t.spawn(t1)
        seen = t.load(x)
        t.join(t1)
        t.assert_((seen == 0) | (seen == 1))
    return p


@twin
def sync_builtins() -> Program:
    p = Program("sync_builtins")
    main = p.thread("main")  # thread 0, as in C
    hits, owner, lk, count = p.vars("hits", "owner", "lk", "count")
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for i, w in enumerate(ws):
        w.fetch_add(hits, 1)
        w.cas(owner, 0, i + 1)
        with w.loop(bound=3) as lp:  # --unroll 3
            r = w.exchange(lk, 1)
            lp.break_if(r == 0)
        _incr(w, count)
        w.store(lk, 0)
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        h = t.load(hits)
        ok = t.let(0)
        with t.if_(h == 2):
            t.set(ok, t.load(count) == 2)
        t.assert_(ok)
    return p


@twin
def atomic_builtins() -> Program:
    p = Program("atomic_builtins")
    main = p.thread("main")  # thread 0, as in C
    data, ready, slot, bits = p.vars("data", "ready", "slot", "bits")
    pr = p.thread("producer", start=False)
    pr.store(data, 5)
    pr.store(ready, 1)
    pr.fetch_op("or", bits, 1)
    with main as t:
        t.spawn(pr)
        r = t.load(ready)
        d = t.load(data)
        t.assert_(~((r == 1) & (d != 5)))
        old = t.exchange(slot, 3)
        ok = t.cas(slot, 3, 4)
        t.assert_((old == 0) & ok)
        t.fetch_op("or", bits, 2)
        t.join(pr)
        t.assert_(t.load(bits) == 3)
    return p


@twin
def stdatomic_ops() -> Program:
    p = Program("stdatomic_ops")
    main = p.thread("main")  # thread 0, as in C
    a = p.var("a", 10)
    b = p.var("b", 0xFF)
    c = p.var("c")
    t1 = p.thread("t1", start=False)
    old = t1.fetch_sub(a, 3)
    ob = t1.fetch_op("and", b, 0x0F)
    won = t1.cas(c, 0, 1)
    t1.let(old + ob + won)
    with main as t:
        t.spawn(t1)
        t.fetch_op("xor", b, 1)
        t.exchange(c, 2)
        t.join(t1)
        t.assert_(t.load(a) == 7)
        fb = t.load(b)
        t.assert_((fb == 0x0E) | (fb == 0x0F))
    return p


@twin
def deadlock_abba() -> Program:
    p = Program("deadlock_abba")
    main = p.thread("main")  # thread 0, as in C
    a, b = p.mutex("a"), p.mutex("b")
    t1 = p.thread("t1", start=False)
    t1.lock(a)
    t1.lock(b)
    t1.unlock(b)
    t1.unlock(a)
    with main as t:
        t.spawn(t1)
        t.lock(b)
        t.lock(a)
        t.unlock(a)
        t.unlock(b)
    return p


def _philosophers(name: str, ordered: bool) -> Program:
    p = Program(name)
    main = p.thread("main")  # thread 0, as in C
    forks = [p.mutex(f"fork[{i}]") for i in range(3)]
    ths = [p.thread(f"ph{i}", start=False) for i in range(3)]
    for i, ph in enumerate(ths):
        left, right = i, (i + 1) % 3
        first, second = (min(left, right), max(left, right)) if ordered else (left, right)
        ph.lock(forks[first])
        ph.lock(forks[second])
        ph.unlock(forks[second])
        ph.unlock(forks[first])
    with main as t:
        for ph in ths:
            t.spawn(ph)
    return p


@twin
def philosophers_ordered() -> Program:
    return _philosophers("philosophers_ordered", True)


@twin
def philosophers_deadlock() -> Program:
    return _philosophers("philosophers_deadlock", False)


@twin
def treiber_stack() -> Program:
    # Pointers as numbers: 0 is null, k + 1 is the node pushed by pusher k.
    p = Program("treiber_stack")
    main = p.thread("main")  # thread 0, as in C
    top = p.var("top")
    val = p.array("node.value", 2)
    nxt = p.array("node.next", 2)
    ws = [p.thread(f"pusher{k}", start=False) for k in range(2)]
    for k, w in enumerate(ws):
        w.store(val[k], k + 1)
        with w.loop(bound=2) as lp:  # --unroll 2
            old = w.load(top)
            w.store(nxt[k], old)
            ok = w.cas(top, old, k + 1)
            lp.break_if(ok)
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        got = []
        for _ in range(2):  # both pops find a node: the pushes are done
            with t.loop(bound=2) as lp:
                old = t.load(top)
                nx = t.load(nxt[old - 1])
                ok = t.cas(top, old, nx)
                lp.break_if(ok)
            got.append(t.load(val[old - 1]))
        t.assert_((got[0] + got[1] == 3) & (got[0] != got[1]))
        t.assert_(t.load(top) == 0)
    return p


@twin
def two_lock_queue() -> Program:
    # Pointers as numbers: 0 is null, 1 the dummy node, 2 the enqueued node.
    p = Program("two_lock_queue")
    main = p.thread("main")  # thread 0, as in C
    head, tail = p.vars("q.head", "q.tail")
    hlock, tlock = p.mutex("q.hlock"), p.mutex("q.tlock")
    val = p.array("node.value", 2)
    nxt = p.array("node.next", 2)

    def dequeue(t):
        t.lock(hlock)
        node = t.load(head)
        nh = t.load(nxt[node - 1])
        r = t.let(-1)
        with t.if_(nh == 0):
            t.unlock(hlock)
        with t.else_():
            t.set(r, t.load(val[nh - 1]))
            t.store(head, nh)
            t.unlock(hlock)
        return r

    e = p.thread("E", start=False)
    e.store(val[1], 1)
    e.store(nxt[1], 0)
    e.lock(tlock)
    tl = e.load(tail)
    e.store(nxt[tl - 1], 2)
    e.store(tail, 2)
    e.unlock(tlock)
    d = p.thread("D", start=False)
    dequeue(d)
    with main as t:
        t.store(nxt[0], 0)
        t.store(head, 1)
        t.store(tail, 1)
        t.spawn(e)
        t.spawn(d)
        t.join(e)
        t.join(d)
        dequeue(t)
    return p


@twin
def peterson() -> Program:
    p = Program("peterson")
    main = p.thread("main")  # thread 0, as in C
    flag = p.array("flag", 2)
    turn, count = p.vars("turn", "count")

    def critical(t, i):
        t.store(flag[i], 1)
        t.store(turn, 1 - i)
        with t.loop(bound=2) as lp:  # --unroll 2
            f = t.load(flag[1 - i])
            lp.break_if(f != 1)
            tn = t.load(turn)
            lp.break_if(tn != 1 - i)
        _incr(t, count)
        t.store(flag[i], 0)

    t1 = p.thread("t1", start=False)
    critical(t1, 1)
    with main as t:
        t.spawn(t1)
        critical(t, 0)
        t.join(t1)
        t.assert_(t.load(count) == 2)
    return p


@twin
def barrier_await() -> Program:
    p = Program("barrier_await")
    main = p.thread("main")  # thread 0, as in C
    data = p.array("data", 2)
    arrived = p.var("arrived")

    def phase(t, i):
        t.store(data[i], i + 1)
        t.fetch_add(arrived, 1)
        t.await_(arrived, "==", 2)
        t.assert_(t.load(data[1 - i]) == 2 - i)

    t1 = p.thread("t1", start=False)
    phase(t1, 1)
    with main as t:
        t.spawn(t1)
        phase(t, 0)
    return p


@twin
def producer_consumer() -> Program:
    p = Program("producer_consumer")
    main = p.thread("main")  # thread 0, as in C
    flag, slot = p.vars("flag", "slot")
    c = p.thread("consumer", start=False)
    for i in (1, 2):
        c.await_(flag, "==", 1)
        c.assert_(c.load(slot) == i)
        c.store(flag, 0)
    with main as t:
        t.spawn(c)
        for i in (1, 2):
            t.await_(flag, "==", 0)
            t.store(slot, i)
            t.store(flag, 1)
    return p


@twin
def unroll_blocked() -> Program:
    p = Program("unroll_blocked")
    main = p.thread("main")  # thread 0, as in C
    x, y = p.vars("x", "y")
    r = p.thread("reader", start=False)
    with r.loop(bound=3) as lp:  # --unroll 3
        v = r.load(x)
        lp.break_if(v != 0)
    r.load(y)
    with main as t:
        t.spawn(r)
        t.store(y, 1)
        t.store(y, 2)
        t.store(x, 1)
    return p


@twin
def recursion() -> Program:
    p = Program("recursion")
    main = p.thread("main")  # thread 0, as in C
    result = p.array("result", 2)
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for i, w in enumerate(ws):
        w.store(result[i], (8, 13)[i])
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        a = t.load(result[0])
        ok = t.let(0)
        with t.if_(a == 8):
            t.set(ok, t.load(result[1]) == 13)
        t.assert_(ok)
    return p


@twin
def lazy_init_bug() -> Program:
    p = Program("lazy_init_bug")
    main = p.thread("main")  # thread 0, as in C
    initialized, value = p.vars("initialized", "value")

    def get(t):
        f = t.load(initialized)
        with t.if_(f == 0):
            t.store(initialized, 1)
            t.store(value, 42)
        t.assert_(t.load(value) == 42)

    t1 = p.thread("t1", start=False)
    get(t1)
    with main as t:
        t.spawn(t1)
        get(t)
    return p


# Twins of paper examples with three or more threads: the same threads as the example in
# examples/, started by a main thread that spawns them in order, as the C programs do.


@twin
def litmus_wrc() -> Program:
    p = Program("litmus_wrc")
    main = p.thread("main")  # thread 0, as in C
    x, y = p.vars("x", "y")
    ths = [p.thread(f"t{i}", start=False) for i in range(3)]
    ths[0].store(x, 1)
    ths[1].load(x)
    ths[1].store(y, 1)
    ths[2].load(y)
    ths[2].load(x)
    with main as t:
        for th in ths:
            t.spawn(th)
    return p


@twin
def litmus_iriw() -> Program:
    p = Program("litmus_iriw")
    main = p.thread("main")  # thread 0, as in C
    x, y = p.vars("x", "y")
    ths = [p.thread(f"t{i}", start=False) for i in range(4)]
    ths[0].store(x, 1)
    ths[1].store(y, 1)
    ths[2].load(x)
    ths[2].load(y)
    ths[3].load(y)
    ths[3].load(x)
    with main as t:
        for th in ths:
            t.spawn(th)
    return p


@twin
def rvf_fig1() -> Program:
    p = Program("rvf_fig1")
    main = p.thread("main")  # thread 0, as in C
    x, y = p.vars("x", "y")
    ths = [p.thread(f"thr{i + 1}", start=False) for i in range(3)]
    for th in ths:
        th.store(x, 1)
        th.store(y, 1)
    ths[1].load(x)
    ths[2].load(y)
    with main as t:
        for th in ths:
            t.spawn(th)
    return p


@twin
def n_reads_lock(n: int = 3) -> Program:
    p = Program("n_reads_lock")
    main = p.thread("main")  # thread 0, as in C
    x = p.var("x")
    lk = p.mutex("l")
    ths = [p.thread(f"t{i}", start=False) for i in range(n)]
    for th in ths:
        th.lock(lk)
        th.load(x)
        th.unlock(lk)
    with main as t:
        for th in ths:
            t.spawn(th)
    return p


@twin
def lapor_rw(n: int = 3, locked: int = 1) -> Program:
    p = Program("lapor_rw")
    main = p.thread("main")  # thread 0, as in C
    x = p.var("x")
    lk = p.mutex("l")
    ths = [p.thread(f"t{i}", start=False) for i in range(n)]
    for i, th in enumerate(ths):
        if locked:
            th.lock(lk)
        th.load(x)
        th.store(x, i + 1)
        if locked:
            th.unlock(lk)
    with main as t:
        for th in ths:
            t.spawn(th)
    return p


@twin
def godot_fig5() -> Program:
    p = Program("godot_fig5")
    main = p.thread("main")  # thread 0, as in C
    x, y = p.vars("x", "y")
    ths = [p.thread(n, start=False) for n in "pqrs"]
    for th, k in zip(ths, (1, 1, 3), strict=False):
        th.fetch_add(x, k)
    ths[3].await_(x, "==", 3)
    ths[3].store(y, 1)
    with main as t:
        for th in ths:
            t.spawn(th)
    return p


# Condition variables, as porlab models them (no spurious wake-ups):
#   pthread_cond_wait(c, m):  v = read c's signal counter; unlock m; await counter != v; lock m
#   pthread_cond_signal(c), pthread_cond_broadcast(c):  counter += 1 (result unused)


def _cond_wait(t, c, m) -> None:
    v = t.load(c)
    t.unlock(m)
    t.await_(c, "!=", v)
    t.lock(m)


@twin
def cond_signal() -> Program:
    p = Program("cond_signal")
    main = p.thread("main")  # thread 0, as in C
    m = p.mutex("m")
    c, ready, data = p.vars("c", "ready", "data")
    cons = p.thread("consumer", start=False)
    cons.lock(m)
    with cons.loop(bound=3) as lp:  # while (!ready): twice at most (no spurious wake-ups)
        r = cons.load(ready)
        lp.break_if(r != 0)
        _cond_wait(cons, c, m)
    v = cons.load(data)
    cons.unlock(m)
    cons.assert_(v == 42)
    with main as t:
        t.spawn(cons)
        t.lock(m)
        t.store(data, 42)
        t.store(ready, 1)
        t.fetch_add(c, 1)
        t.unlock(m)
    return p


@twin
def cond_broadcast_bug() -> Program:
    p = Program("cond_broadcast_bug")
    main = p.thread("main")  # thread 0, as in C
    m = p.mutex("m")
    c, items = p.vars("c", "items")
    cons = [p.thread(f"consumer{i}", start=False) for i in range(2)]
    for t in cons:
        t.lock(m)
        n = t.load(items)
        with t.if_(n == 0):
            _cond_wait(t, c, m)
        t.store(items, t.load(items) - 1)
        left = t.load(items)
        t.unlock(m)
        t.assert_(left >= 0)
    with main as t:
        for ct in cons:
            t.spawn(ct)
        for _ in range(2):
            t.lock(m)
            t.store(items, t.load(items) + 1)
            t.fetch_add(c, 1)
            t.unlock(m)
    return p


@twin
def int_widths() -> Program:
    p = Program("int_widths")
    main = p.thread("main")  # thread 0, as in C
    c8, s16, l64, u32 = p.vars("c8", "s16", "l64", "u32")
    t1 = p.thread("t1", start=False)
    t1.store(c8, -100)
    t1.store(s16, -30000)
    t1.store(l64, -5000000000)
    t1.store(u32, 4000000000)
    with main as t:
        t.spawn(t1)
        t.load(u32)
        t.load(l64)
        t.load(c8)
    return p


@twin
def struct_array() -> Program:
    p = Program("struct_array")
    main = p.thread("main")  # thread 0, as in C
    ident = [p.var(f"acc[{i}].id", 10 + i) for i in range(2)]
    bal = [p.var(f"acc[{i}].balance", b) for i, b in enumerate((100, 50))]
    ops = [p.var(f"acc[{i}].ops") for i in range(2)]
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for i, w in enumerate(ws):
        w.store(bal[i], w.load(bal[i]) + 5)
        w.store(ops[i], w.load(ops[i]) + 1)
        w.load(ident[1 - i])
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        t.assert_(t.load(bal[0]) + t.load(bal[1]) == 160)
    return p


@twin
def cond_broadcast() -> Program:
    p = Program("cond_broadcast")
    main = p.thread("main")  # thread 0, as in C
    m = p.mutex("m")
    go, started, running = p.vars("go", "started", "running")
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for w in ws:
        w.lock(m)
        with w.loop(bound=3) as lp:
            s = w.load(started)
            lp.break_if(s != 0)
            _cond_wait(w, go, m)
        _incr(w, running)
        w.unlock(m)
    with main as t:
        for w in ws:
            t.spawn(w)
        t.lock(m)
        t.store(started, 1)
        t.fetch_add(go, 1)
        t.unlock(m)
        for w in ws:
            t.join(w)
        t.assert_(t.load(running) == 2)
    return p


@twin
def join_chain() -> Program:
    p = Program("join_chain")
    main = p.thread("main")  # thread 0, as in C
    a_result, b_result = p.vars("a_result", "b_result")
    ha = p.var("ha")  # pthread_create writes A's id (1) into it before the spawn
    a = p.thread("A", start=False)
    a.store(a_result, 5)
    b = p.thread("B", start=False)
    b.load(ha)
    b.join(a)
    b.store(b_result, b.load(a_result) + 1)
    with main as t:
        t.store(ha, 1)
        t.spawn(a)
        t.spawn(b)
        t.join(b)
        t.assert_(t.load(b_result) == 6)
    return p


@twin
def await_widths() -> Program:
    p = Program("await_widths")
    main = p.thread("main")  # thread 0, as in C
    small, big, ticket = p.vars("small", "big", "ticket")
    w = p.thread("waiter", start=False)
    s = w.await_(small, ">", 0)
    b = w.await_(big, "u>=", 1 << 40)
    old = w.xchg_await(ticket, "==", 0, 1)
    w.assert_((s == 7) & (b == 1 << 41) & (old == 0))
    with main as t:
        t.spawn(w)
        t.store(small, 7)
        t.store(big, 1 << 41)
    return p


@twin
def lapor_n_reads(n: int = 3) -> Program:
    p = Program("lapor_n_reads")
    main = p.thread("main")  # thread 0, as in C
    x = p.var("x")
    ths = [p.thread(f"t{i}", start=False) for i in range(n)]
    for th in ths:
        th.load(x)
    with main as t:
        for th in ths:
            t.spawn(th)
    return p


@twin
def godot_fig1(mode: str = "await") -> Program:
    """The paper example itself: examples/sortnet.py's build3 (main plays p, which starts first
    and spawns q as its first event: the same interleavings)."""
    ns = runpy.run_path(str(Path(__file__).resolve().parents[2] / "examples" / "sortnet.py"))
    return ns["build3"](mode)


@twin
def bitfield_race() -> Program:
    # the two 1-bit fields share one storage unit: a bit-field store reads and rewrites it
    p = Program("bitfield_race")
    main = p.thread("main")  # thread 0, as in C
    unit = p.var("f")
    setters = [p.thread(f"set_{n}", start=False) for n in "ab"]
    for bit, s in zip((1, 2), setters, strict=True):
        v = s.load(unit)
        s.store(unit, v | bit)
    with main as t:
        for s in setters:
            t.spawn(s)
        for s in setters:
            t.join(s)
        u = t.load(unit)
        ok = t.let(0)
        with t.if_((u & 1) != 0):
            u2 = t.load(unit)
            t.set(ok, (u2 & 2) != 0)
        t.assert_(ok)
    return p


@twin
def uintptr_handoff() -> Program:
    p = Program("uintptr_handoff")
    main = p.thread("main")  # thread 0, as in C
    slot, cell = p.vars("slot", "cell")
    r = p.thread("reader", start=False)
    u = r.load(slot)
    with r.if_(u != 0):
        r.assert_(r.load(cell) == 42)
    with main as t:
        t.spawn(r)
        t.store(cell, 42)
        t.store(slot, 1)  # the pointer to cell, as a number
    return p


@twin
def global_ptr_table() -> Program:
    p = Program("global_ptr_table")
    main = p.thread("main")  # thread 0, as in C
    ab = [p.var("a"), p.var("b")]
    table = [p.var(f"table[{i}]", 1) for i in range(2)]  # never written: values do not matter
    head = p.var("nest.head", 1)
    tag = [p.var(f"nest.in[{i}].tag", v) for i, v in enumerate((2, 5))]
    vals = [[p.var(f"nest.in[{i}].vals[{j}]", v) for j, v in enumerate(vs)]
            for i, vs in enumerate(((3, 4), (6, 7)))]
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for i, w in enumerate(ws):
        w.load(table[i])
        w.store(ab[i], i + 10)
        w.store(vals[i][1], w.load(tag[i]) * 10)

    def both(t, first, v1, second, v2) -> None:  # assert(first == v1 && second == v2)
        ok = t.let(0)
        with t.if_(t.load(first) == v1):
            t.set(ok, t.load(second) == v2)
        t.assert_(ok)

    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        both(t, ab[0], 10, ab[1], 11)
        both(t, vals[0][1], 20, vals[1][1], 50)
        both(t, head, 1, vals[1][0], 6)
    return p


@twin
def struct_by_value() -> Program:
    p = Program("struct_by_value")
    main = p.thread("main")  # thread 0, as in C
    x, y = p.vars("shared.x", "shared.y")
    t1 = p.thread("t1", start=False)
    t1.store(x, 1)
    t1.store(y, 2)
    with main as t:
        t.spawn(t1)
        t.join(t1)
        cx, cy = t.load(x), t.load(y)  # struct point copy = shared;
        t.assert_((cx == 1) & (cy == 2))
    return p


@twin
def lastzero(n: int = 3) -> Program:
    """benchmarks/programs/lastzero.py with the scanner as main, which spawns the writers."""
    p = Program("lastzero")
    main = p.thread("main")  # thread 0, as in C
    a = p.array("array", n + 1)
    ws = [p.thread(f"w{j}", start=False) for j in range(1, n + 1)]
    for j, w in enumerate(ws, start=1):
        w.store(a[j], w.load(a[j - 1]) + 1)
    with main as t:
        for w in ws:
            t.spawn(w)
        i = t.let(n, "i")
        with t.loop(bound=n + 1) as lp:
            v = t.load(a[i])
            lp.break_if(v == 0)
            t.set(i, i - 1)
    return p


# ---------------------------------------------------------------------------------------------
# C++ programs (tests/c/cxx_*.cpp). Their std::threads add events of the library (main writes
# the wrapper of the callable before the spawn, the thread reads it) that are ordered by the
# spawn and add no class: these twins have the program's own events, and the corpus runner
# compares classes (twin-classes), not interleavings.


@twin
def cxx_atomic_counter() -> Program:
    p = Program("cxx_atomic_counter")
    main = p.thread("main")  # thread 0, as in C++
    count = p.var("count")
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for k, w in enumerate(ws, start=1):
        w.fetch_add(count, k)
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        t.assert_(t.load(count) == 3)
    return p


@twin
def cxx_mutex_missing() -> Program:
    p = Program("cxx_mutex_missing")
    main = p.thread("main")  # thread 0, as in C++
    m = p.mutex("m")
    count = p.var("count")
    careful, careless = p.thread("careful", start=False), p.thread("careless", start=False)
    careful.lock(m)
    _incr(careful, count)
    careful.unlock(m)
    _incr(careless, count)
    with main as t:
        for w in (careful, careless):
            t.spawn(w)
        for w in (careful, careless):
            t.join(w)
        t.assert_(t.load(count) == 2)
    return p


@twin
def cxx_message_passing() -> Program:
    p = Program("cxx_message_passing")
    main = p.thread("main")  # thread 0, as in C++
    data, ready = p.vars("data", "ready")
    w = p.thread("writer", start=False)
    w.store(data, 1)
    w.store(ready, 1)
    with main as t:
        t.spawn(w)
        with t.if_(t.load(ready) != 0):
            t.assert_(t.load(data) == 1)
        t.join(w)
    return p


@twin
def cxx_lambda_captures() -> Program:
    p = Program("cxx_lambda_captures")
    main = p.thread("main")  # thread 0, as in C++
    total = p.var("total")
    a, b = p.thread("a", start=False), p.thread("b", start=False)
    a.fetch_add(total, 10)
    b.fetch_add(total, 2 + 3)
    with main as t:
        t.spawn(a)
        t.spawn(b)
        t.join(a)
        t.join(b)
        t.assert_(t.load(total) == 15)
    return p


@twin
def cxx_virtual_dispatch() -> Program:
    p = Program("cxx_virtual_dispatch")
    main = p.thread("main")  # thread 0, as in C++
    m = p.mutex("acct.m")
    balance = p.var("acct.balance")
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for v, w in enumerate(ws, start=1):
        w.lock(m)
        w.store(balance, w.load(balance) + v)
        w.unlock(m)
    with main as t:
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        t.assert_(t.load(balance) == 3)
    return p


@twin
def cxx_global_ctor() -> Program:
    p = Program("cxx_global_ctor")
    main = p.thread("main")  # thread 0, as in C++
    value = p.var("counter.value")
    ws = [p.thread(f"w{i}", start=False) for i in range(2)]
    for k, w in enumerate(ws, start=1):
        w.fetch_add(value, k)
    with main as t:
        t.store(value, 5)  # the constructor, at the start of main
        t.assert_(t.load(value) == 5)
        for w in ws:
            t.spawn(w)
        for w in ws:
            t.join(w)
        t.assert_(t.load(value) == 8)
    return p


@twin
def cxx_static_local() -> Program:
    """The guard protocol of porlab's C++ runtime (porlab_cxxrt.cpp, __cxa_guard_*): the
    compiler's check of byte 0, then under the guard lock: byte 0 set (done), byte 1 clear (this
    thread initialises: set it), else wait on the guard condition variable and check again."""
    p = Program("cxx_static_local")
    main = p.thread("main")  # thread 0, as in C++
    gm = p.mutex("guardMutex")
    g0, g1, gc, constructed, wid, a = p.vars("g0", "g1", "guardCond", "constructed", "w.id", "a")
    t1 = p.thread("t1", start=False)

    def widget_id(t) -> object:
        with t.if_(t.load(g0) == 0):
            t.lock(gm)
            mine = t.let(0)
            with t.loop(bound=3) as lp:  # at most one wait: the release sets byte 0
                with t.if_(t.load(g0) != 0):
                    t.unlock(gm)
                    lp.break_()
                with t.if_(t.load(g1) == 0):
                    t.store(g1, 1)
                    t.unlock(gm)
                    t.set(mine, 1)
                    lp.break_()
                _cond_wait(t, gc, gm)
            with t.if_(mine):
                t.store(wid, 7)  # Widget(): id = 7, then constructed + 1
                t.store(constructed, t.load(constructed) + 1)
                t.lock(gm)  # __cxa_guard_release
                t.store(g1, 0)
                t.store(g0, 1)
                t.fetch_add(gc, 1)
                t.unlock(gm)
        return t.load(wid)

    t1.store(a, widget_id(t1))
    with main as t:
        t.store(a, 0)
        t.spawn(t1)
        b = widget_id(t)
        t.join(t1)
        t.assert_((t.load(a) == 7) & (b == 7))
        t.assert_(t.load(constructed) == 1)
    return p


def _barrier_wait(t, b, n: int, rnd: int) -> None:
    """pthread_barrier_wait as porlab models it (program/Builtins.cpp): the barrier word is
    (n << 32) + arrivals; fetch-add 1, and unless this completes round ``rnd`` (the old value
    then ends in n * rnd - 1 arrivals), await the word reaching the round's end."""
    base = n << 32
    old = t.fetch_add(b, 1)
    with t.if_(old != base + n * rnd - 1):
        t.await_(b, ">=", base + n * rnd)


@twin
def barrier() -> Program:
    p = Program("barrier")
    main = p.thread("main")  # thread 0, as in C
    b = p.var("b")
    x = p.array("x", 2)

    def w(t, i: int) -> None:
        for rnd in (1, 2):
            t.store(x[i], rnd)
            _barrier_wait(t, b, 2, rnd)
            t.assert_(t.load(x[1 - i]) >= rnd)

    t1 = p.thread("t1", start=False)
    w(t1, 1)
    with main as t:
        t.store(b, 2 << 32)  # pthread_barrier_init(&b, 0, 2)
        t.spawn(t1)
        w(t, 0)
        t.join(t1)
    return p


@twin
def barrier_missing() -> Program:
    p = Program("barrier_missing")
    main = p.thread("main")  # thread 0, as in C
    x = p.array("x", 2)

    def w(t, i: int) -> None:
        t.store(x[i], 1)
        t.assert_(t.load(x[1 - i]) == 1)

    t1 = p.thread("t1", start=False)
    w(t1, 1)
    with main as t:
        t.spawn(t1)
        w(t, 0)
        t.join(t1)
    return p


class _RwLock:
    """pthread_rwlock_* as porlab models it (program/Builtins.cpp): a mutex taken by writers for the
    whole critical section and by readers only to register in the reader count, which a writer
    awaits to be 0 and a reader's unlock decrements (its old value is checked: used)."""

    def __init__(self, p: Program, name: str) -> None:
        self.m = p.mutex(name)
        self.readers = p.var(f"{name}.readers")

    def rdlock(self, t) -> None:
        t.lock(self.m)
        t.fetch_add(self.readers, 1)
        t.unlock(self.m)

    def wrlock(self, t) -> None:
        t.lock(self.m)
        t.await_(self.readers, "==", 0)

    def rdunlock(self, t) -> None:
        t.assert_(t.fetch_sub(self.readers, 1) >= 1)

    def wrunlock(self, t) -> None:
        t.unlock(self.m)


def _rwlock_pair(name: str, writer_reads: bool) -> Program:
    p = Program(name)
    main = p.thread("main")  # thread 0, as in C
    rw = _RwLock(p, "rw")
    x, y = p.vars("x", "y")
    r = p.thread("reader", start=False)
    rw.rdlock(r)
    a, b = r.load(x), r.load(y)
    rw.rdunlock(r)
    r.assert_(a == b)
    with main as t:
        t.spawn(r)
        rw.rdlock(t) if writer_reads else rw.wrlock(t)
        t.store(x, 1)
        t.store(y, 1)
        rw.rdunlock(t) if writer_reads else rw.wrunlock(t)
        t.join(r)
    return p


@twin
def rwlock() -> Program:
    return _rwlock_pair("rwlock", writer_reads=False)


@twin
def rwlock_misuse() -> Program:
    return _rwlock_pair("rwlock_misuse", writer_reads=True)


@twin
def rwlock_readers() -> Program:
    p = Program("rwlock_readers")
    main = p.thread("main")  # thread 0, as in C
    rw = _RwLock(p, "rw")
    inside = p.var("inside")

    def reader(t) -> None:
        rw.rdlock(t)
        t.assert_(t.fetch_add(inside, 1) + 1 == 1)
        t.fetch_sub(inside, 1)
        rw.rdunlock(t)

    r = p.thread("reader", start=False)
    reader(r)
    with main as t:
        t.spawn(r)
        reader(t)
        t.join(r)
    return p


@twin
def spawn_after_branch() -> Program:
    p = Program("spawn_after_branch")
    main = p.thread("main")  # thread 0, as in C
    t1 = p.thread("t1", start=False)
    child = p.thread("child", start=False)
    v0 = p.var("v0")
    r_ = p.var("r_")
    t1.store(v0, 1)
    child.store(r_, child.load(v0))
    with main as t:
        t.spawn(t1)
        a = t.load(v0)
        with t.if_(a != 1):
            t.store(v0, 1)
        t.store(v0, 2)
        t.spawn(child)
    return p
