/* porlab-test
   verdict: violation assert
   partition: mazurkiewicz=1 reads-from=1 rvf=1
*/
/* A std::thread destroyed while joinable calls std::terminate (its destructor, at the end of the
   scope): an assertion failure at that line. The thread's write to x conflicts with nothing main
   does: 1 class, an error. */
#include <thread>

int x;

void run() {
    std::thread t([] { x = 1; });
} // porlab: error

int main() {
    run();
    return 0;
}
