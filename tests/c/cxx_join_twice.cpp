/* porlab-test
   verdict: violation assert
   partition: mazurkiewicz=1 reads-from=1 rvf=1
*/
/* Joining a std::thread that is no longer joinable: libstdc++ throws std::system_error, which
   without exceptions ends in std::terminate; porlab's runtime reports it as an assertion failure
   at the program's line that called join. Every execution gets there, and nothing before it
   conflicts (the thread's write is joined before the second join): 1 class, an error. */
#include <thread>

int x;

int main() {
    std::thread t([] { x = 1; });
    t.join();
    t.join(); // porlab: error
    return 0;
}
