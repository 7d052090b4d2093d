"""singleton(n): SV-COMP's ``pthread/singleton`` (the RVF-SMC paper's Table 1 row
"singleton", threads U+1), reconstructed from its known structure rather than copied:

    char *v;
    thread1:  v = malloc(1);
    thread2:  v[0] = 'X';          thread3:  v[0] = 'Y';
    thread0:  create+join thread1; create thread2, thread3, thread2, thread2; join them all
    main:     create+join thread0; assert(v[0] == 'X');

Here the pointer ``v`` is a variable set to 1 by thread1 (the allocation), every writer loads
it (assume(v != 0): the dereference of a null ``v`` is the only way to go wrong there) and then
stores its character into ``c`` (= ``v[0]``); thread0 spawns n writers, the second of which
writes 'Y' (as thread3, the original's second writer), the others 'X'. ``main`` joins thread0
and loads ``c``. The reads-from classes are n (which writer main's load sees); RVF has 2 (the
value: 'X' or 'Y'), the paper's 2 traces for every U. With ``asserts=True`` main asserts
``c == 'X'``, which fails (the SV-COMP verdict of singleton is false).
"""

from __future__ import annotations

from porlab import Program

X, Y = ord("X"), ord("Y")


def build(n: int = 4, asserts: bool = True) -> Program:
    p = Program(f"singleton({n})")
    v, c = p.vars("v", "c")
    with p.thread("thread1", start=False) as t1:
        t1.store(v, 1)
    writers = []
    for i in range(n):
        with p.thread(f"writer{i}", start=False) as w:
            ptr = w.load(v, "v")
            w.assume(ptr != 0)
            w.store(c, Y if i == 1 else X)
        writers.append(w)
    with p.thread("thread0", start=False) as t0:
        t0.spawn(t1)
        t0.join(t1)
        for w in writers:
            t0.spawn(w)
        for w in writers:
            t0.join(w)
    with p.thread("main") as m:
        m.spawn(t0)
        m.join(t0)
        r = m.load(c, "c")
        if asserts:
            m.assert_(r == X)
    return p


program = build()
