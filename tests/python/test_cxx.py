"""C++ programs (``.cc``/``.cpp``/``.cxx``): how they are recognised and compiled, porlab's C++
runtime, what is rejected and how, and ``porlab run`` on them. The programs' results are checked
in the corpus (tests/c/cxx_*.cpp, test_c_corpus.py); this file checks the front end around them."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, run_cli

import porlab
from porlab.cfront import C_INCLUDE_DIR, CXX_RUNTIME, disassemble_c, has_c_frontend
from porlab.iterate import traces

pytestmark = pytest.mark.skipif(not has_c_frontend(), reason="built without PORLAB_WITH_LLVM")

COUNTER = """\
#include <atomic>
#include <cassert>
#include <thread>
std::atomic<int> x{0};
void add(int k) { x.fetch_add(k); }
int main() {
    std::thread a(add, 1), b(add, 2);
    a.join();
    b.join();
    assert(x.load() == 3);
    return 0;
}
"""

RACY = """\
#include <atomic>
#include <cassert>
#include <thread>
std::atomic<int> x{0};
void inc() { x.store(x.load() + 1); }
int main() {
    std::thread a(inc), b(inc);
    a.join();
    b.join();
    assert(x.load() == 2);
    return 0;
}
"""


def load(src: str, name: str = "test.cpp", **kw: Any) -> Any:
    return porlab.load_c_source(src, name, loops="none", **kw)


def counts(prog: Any, explorer: str = "optimal") -> tuple[int, int, int]:
    r = porlab.explore(prog, explorer, stop_on_error=False)
    return r.complete, r.blocked, r.errors


@pytest.mark.parametrize("suffix", [".cpp", ".cc", ".cxx"])
def test_cxx_suffixes_compile_as_cxx(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"counter{suffix}"
    path.write_text(COUNTER)
    assert counts(porlab.load_c(path, loops="none")) == (2, 0, 0)


def test_a_cxx_program_named_c_is_c_unless_clang_is_told(tmp_path: Path) -> None:
    path = tmp_path / "counter.c"
    path.write_text(COUNTER)
    with pytest.raises(porlab.InputError, match="does not compile"):
        porlab.load_c(path)
    prog = porlab.load_c(path, loops="none", clang_args=["-x", "c++"])
    assert counts(prog) == (2, 0, 0)


def test_racy_twin_fails_at_the_assert_line() -> None:
    r = porlab.explore(load(RACY), "optimal", stop_on_error=False)
    assert r.errors > 0
    assert {line for _, _, _, _, line in r.error_sites} == {10}


def test_library_events_get_the_program_lines() -> None:
    """The lock of a std::lock_guard, the unlock in its destructor and a std::atomic load are
    inlined library code: their events carry the program's lines, not libstdc++'s."""
    src = """\
#include <atomic>
#include <mutex>
#include <thread>
std::mutex m;
std::atomic<int> flag{0};
int n;
void work() {
    std::lock_guard<std::mutex> g(m);
    n = n + flag.load();
}
int main() {
    std::thread t(work);
    t.join();
    return 0;
}
"""
    trace = next(iter(traces(load(src, "lines.cpp"), "optimal")))
    where = {(e.kind, trace.location_name(e.loc)): trace.source(i)
             for i, e in enumerate(trace.events)
             if e.loc >= 0 and trace.location_name(e.loc) in ("m", "flag")}
    assert where == {("lock", "m"): "lines.cpp:8", ("read", "flag"): "lines.cpp:9",
                     ("unlock", "m"): "lines.cpp:10"}


def test_threads_are_named_std_thread_and_locations_after_the_program() -> None:
    trace = next(iter(traces(load(COUNTER), "optimal")))
    assert {trace.thread_name(e.thread) for e in trace.events} == {
        "main", "t1:std::thread", "t2:std::thread"}
    assert "x" in {trace.location_name(e.loc) for e in trace.events if e.loc >= 0}


def test_runtime_sits_next_to_porlab_h_and_is_packaged() -> None:
    rt = Path(CXX_RUNTIME)
    assert rt.parent == Path(C_INCLUDE_DIR) and rt.is_file()
    assert "_M_start_thread" in rt.read_text()
    # the wheel takes the whole package directory, include/ with it
    text = (ROOT / "pyproject.toml").read_text()
    assert 'wheel.packages = ["python/porlab"]' in text


def test_every_wheel_in_dist_contains_the_runtime() -> None:
    """A wheel built by `pip wheel .` (if one is lying in dist/) carries the runtime."""
    for whl in sorted((ROOT / "dist").glob("porlab-*.whl")) if (ROOT / "dist").is_dir() else []:
        with zipfile.ZipFile(whl) as z:
            assert "porlab/include/porlab_cxxrt.cpp" in z.namelist(), whl


def test_global_constructors_run_before_main_in_priority_order() -> None:
    src = """\
#include <cassert>
int order[3];
int step;
int record(int v) { order[step] = v; step = step + 1; return v; }
struct R { int v; R(int x) : v(record(x)) {} };
R later __attribute__((init_priority(2000))) (2);
R sooner __attribute__((init_priority(1000))) (1);
R plain(3);
int main() {
    assert(step == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3);
    return 0;
}
"""
    assert counts(load(src), "naive") == (1, 0, 0)


def test_new_and_delete_are_malloc_and_free() -> None:
    src = """\
int main() {
    int* p = new int(4);
    int* a = new int[3];
    a[2] = *p;
    delete p;
    delete[] a;
    return *p;  // use after free
}
"""
    r = porlab.explore(load(src), "naive")
    assert r.errors == 1 and r.first_error is not None
    last = len(r.first_error.events) - 1
    assert "use after free" in r.first_error.describe(last)
    assert r.first_error.source(last) == "test.cpp:7"


def test_condition_variable_without_predicate_can_block_for_good() -> None:
    """A notify before the wait is lost (porlab's condition variables have no spurious
    wake-ups): the waiter stays blocked, a blocked execution, not an error."""
    src = """\
#include <condition_variable>
#include <mutex>
#include <thread>
std::mutex m;
std::condition_variable cv;
void waiter() {
    std::unique_lock<std::mutex> l(m);
    cv.wait(l);
}
int main() {
    std::thread t(waiter);
    cv.notify_all();
    t.join();
    return 0;
}
"""
    complete, blocked, errors = counts(load(src, deadlock_is_error=False), "naive")
    assert complete > 0 and blocked > 0 and errors == 0


def test_detach_yield_and_get_id() -> None:
    src = """\
#include <atomic>
#include <cassert>
#include <thread>
std::atomic<int> x{0};
int main() {
    std::thread t([] { std::this_thread::yield(); x.fetch_add(1); });
    std::thread::id id = t.get_id();
    assert(t.joinable() && id != std::thread::id());
    t.detach();
    assert(!t.joinable());
    return 0;
}
"""
    # the detached thread runs on: it still adds 1 in every complete execution
    assert counts(load(src), "naive")[2] == 0


def test_thread_local_is_per_thread() -> None:
    src = """\
#include <cassert>
#include <thread>
thread_local int tl = 1;
int main() {
    std::thread t([] { tl = 5; assert(tl == 5); });
    t.join();
    assert(tl == 1);
    return 0;
}
"""
    assert counts(load(src), "naive") == (1, 0, 0)


def test_typeid_and_sleep_for() -> None:
    src = """\
#include <cassert>
#include <chrono>
#include <thread>
#include <typeinfo>
struct A { virtual ~A() {} };
struct B : A {};
int main() {
    A* a = new B;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    assert(typeid(*a) == typeid(B));
    assert(typeid(*a) == typeid(A));
    return 0;
}
"""
    r = porlab.explore(load(src), "naive")
    assert r.errors == 1 and {line for *_, line in r.error_sites} == {11}


@pytest.mark.parametrize(
    ("src", "args", "message"),
    [
        ("#include <stdexcept>\nint f(int v) {\n  if (v > 3) throw std::runtime_error(\"big\");\n"
         "  return v;\n}\nint main() { return f(1); }\n", ["-fexceptions"],
         r"bad\.cpp:3: throwing a C\+\+ exception is not supported"),
        ("struct A { virtual ~A() {} };\nstruct B : A { int v = 3; };\nint main() {\n"
         "  A* a = new B;\n  return dynamic_cast<B*>(a) ? 1 : 0;\n}\n", [],
         r"bad\.cpp:5: dynamic_cast is not supported \(RTTI\)"),
        ("#include <iostream>\nint main() {\n  std::cout << 1;\n  return 0;\n}\n", [],
         r"bad\.cpp:3: .*'std::cout'.*iostreams: use printf"),
        ("#include <mutex>\nstd::recursive_mutex m;\nint main() {\n  m.lock();\n"
         "  m.unlock();\n  return 0;\n}\n", [],
         r"bad\.cpp:4: std::recursive_mutex is not supported"),
        ("#include <string>\nint main() {\n  std::string s(\"a\");\n"
         "  return std::stoi(s);\n}\n", [],
         r"bad\.cpp:3: call of the undefined function 'std::allocator<char>::allocator\(\)' "
         r"\(not in porlab's C\+\+ runtime"),
    ],
    ids=["throw", "dynamic_cast", "iostream", "recursive_mutex", "library"],
)
def test_unsupported_cxx_is_one_clear_error(src: str, args: list[str], message: str) -> None:
    with pytest.raises(porlab.UnsupportedError, match=message):
        load(src, "bad.cpp", clang_args=args)


def test_throw_without_exceptions_is_a_compile_error() -> None:
    src = "int main() { throw 1; }\n"
    with pytest.raises(porlab.InputError, match="exceptions disabled"):
        load(src, "throw.cpp")


def test_invoke_without_throw_is_a_call() -> None:
    """-fexceptions: calls become invokes with landing pads; none is ever lowered."""
    src = """\
#include <cassert>
int n;
struct G { ~G() { n = n + 1; } };
void f() { G g; n = n + 10; }
int main() {
    try { f(); } catch (...) { assert(false); }
    assert(n == 11);
    return 0;
}
"""
    prog = load(src, "inv.cpp", clang_args=["-fexceptions"])
    assert counts(prog, "naive") == (1, 0, 0)
    assert "__cxa_begin_catch" not in disassemble_c(prog)  # the catch block is gone


def test_loop_modes_keep_cxx_results() -> None:
    for mode in ("none", "spin-assume", "plp", "saver"):
        prog = porlab.load_c_source(RACY, "racy.cpp", loops=mode)
        r = porlab.explore(prog, "optimal", stop_on_error=False)
        assert (r.complete, r.errors) == (2, 2), mode


def test_cli_run_cxx(tmp_path: Path) -> None:
    safe = tmp_path / "counter.cpp"
    safe.write_text(COUNTER)
    res = run_cli("run", str(safe), "--explorer", "optimal", "--loops", "none", timeout=120)
    assert res.returncode == 0, res.stderr
    assert "2 complete" in res.stdout
    bad = tmp_path / "racy.cc"
    bad.write_text(RACY)
    res = run_cli("run", str(bad), "--json", "--loops", "none", timeout=120)
    assert res.returncode == 42, res.stderr
    assert json.loads(res.stdout)["error_trace"][-1]["source"].endswith("racy.cc:10")
    res = run_cli("run", str(bad), "--loops", "none", "--", "-DX", "-std=c++20", timeout=120)
    assert res.returncode == 42, res.stderr
