"""reorder(n): SV-COMP's ``pthread/reorder_5`` (the RVF-SMC paper's Table 1 row "reorder_5",
threads U+1), reconstructed from its known structure rather than copied:

    int a = 0, b = 0;
    setThread   (n copies):  a = 1; b = -1;
    checkThread (1 copy):    if (!((a == 0 && b == 0) || (a == 1 && b == -1))) reach_error();

The original starts the threads from ``main`` (iSet setters, iCheck = 1 checker) and joins
them; here the n setters and the checker start by themselves, which changes no class count.
The checker loads ``a`` and ``b`` once each, as the clang -O1 code Nidhugg runs does (the
compiler merges the repeated loads of the non-volatile globals). With ``asserts=False`` the
bug check is left out, as in the paper's experiments (it disabled assertions after a sanity
check): the checker's two reads see (a, b) in {0, 1} x {0, -1}, so RVF has 4 classes for every
n (the paper's 4 traces), while the reads-from classes grow with n (which setter's write each
read sees). With ``asserts=True`` the reordering bug (a == 1, b == 0 or a == 0, b == -1) is an
assertion failure.
"""

from __future__ import annotations

from porlab import Program


def build(n: int = 5, asserts: bool = True) -> Program:
    p = Program(f"reorder({n})")
    a, b = p.vars("a", "b")
    for i in range(n):
        with p.thread(f"set{i}") as t:
            t.store(a, 1)
            t.store(b, -1)
    with p.thread("check") as t:
        ra = t.load(a, "a")
        rb = t.load(b, "b")
        if asserts:
            t.assert_(((ra == 0) & (rb == 0)) | ((ra == 1) & (rb == -1)))
    return p


program = build()
