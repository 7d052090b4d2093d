/* porlab-test
   args: --loops none
   verdict: safe
   optimal: complete=6 blocked=0
   partition: mazurkiewicz=6 reads-from=6 rvf=6
   twin-classes: tests/c/twins.py name=cxx_static_local
*/
/* A static local initialised by whichever of two threads gets there first; the other one uses
   it as initialised (the compiler's guard, __cxa_guard_acquire/release in porlab's C++ runtime:
   one lock and condition variable for all guards; guard byte 0 = initialised, byte 1 = pending).
   The constructor runs once. Classes: main or t1 initialises, and the other one either (a) sees
   the guard set at its first check, (b) sees it clear, then takes the lock after the release and
   sees it set, or (c) sees it clear, takes the lock while the initialisation is pending and
   waits for the release's notify: 2 x 3 = 6. The twin spells the guard protocol out. */
#include <cassert>
#include <thread>

int constructed;

struct Widget {
    int id;
    Widget() : id(7) { constructed = constructed + 1; }
};

int widgetId() {
    static Widget w;
    return w.id;
}

int main() {
    int a = 0;
    std::thread t([&a] { a = widgetId(); });
    int b = widgetId();
    t.join();
    assert(a == 7 && b == 7);
    assert(constructed == 1);
    return 0;
}
