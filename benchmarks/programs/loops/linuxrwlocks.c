/* linuxrwlocks(N): the Linux reader-writer spinlock with a bias counter (as in the CDSChecker and
   GenMC test suites), tested with one writer, one reader and N-2 threads that take the lock for
   reading and then for writing (Godot Table I, linuxrwlocks). A failed attempt undoes its
   fetch-and-sub with a fetch-and-add and polls until the lock looks free: zero-net-effect
   loops, which PLP cannot remove (the paper's remark) but whose fetch-and-adds IFAA makes
   commute.
   Reproduces Godot Table I exactly with `--unroll N+1`, Nidhugg's bound
   (N + 1 visits of a loop header): linuxrwlocks(3) baseline and PLP 38033+31993, PLP+Await 38033,
   +IFAA 3840 (linuxrwlocks(4) timed out in every Nidhugg column). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif
#define RW_LOCK_BIAS 0x00100000

atomic_int lock = RW_LOCK_BIAS;
int shareddata;

static void read_lock(void) {
    int priorvalue = atomic_fetch_sub(&lock, 1);
    while (priorvalue <= 0) {
        atomic_fetch_add(&lock, 1);
        while (atomic_load(&lock) <= 0) {
        }
        priorvalue = atomic_fetch_sub(&lock, 1);
    }
}

static void read_unlock(void) { atomic_fetch_add(&lock, 1); }

static void write_lock(void) {
    int priorvalue = atomic_fetch_sub(&lock, RW_LOCK_BIAS);
    while (priorvalue != RW_LOCK_BIAS) {
        atomic_fetch_add(&lock, RW_LOCK_BIAS);
        while (atomic_load(&lock) != RW_LOCK_BIAS) {
        }
        priorvalue = atomic_fetch_sub(&lock, RW_LOCK_BIAS);
    }
}

static void write_unlock(void) { atomic_fetch_add(&lock, RW_LOCK_BIAS); }

static void reader_section(void) {
    read_lock();
    int a = shareddata;
    int b = shareddata;
    assert(a == b);
    read_unlock();
}

static void writer_section(int v) {
    write_lock();
    shareddata = v;
    write_unlock();
}

static void *writer(void *arg) {
    writer_section((int)(long)arg);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    reader_section();
    return 0;
}

static void *reader_writer(void *arg) {
    reader_section();
    writer_section((int)(long)arg);
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_create(&t[0], 0, writer, (void *)1L);
    pthread_create(&t[1], 0, reader, 0);
    for (long i = 2; i < N; i++) pthread_create(&t[i], 0, reader_writer, (void *)i);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    assert(atomic_load(&lock) == RW_LOCK_BIAS);
    return 0;
}
