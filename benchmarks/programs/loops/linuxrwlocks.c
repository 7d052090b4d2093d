/* linuxrwlocks(N): the Linux reader-writer spinlock with a bias counter, one writer and N-1
   readers (Godot Table I, linuxrwlocks). A failed attempt undoes its fetch-and-add and polls
   until the lock looks free: a zero-net-effect loop, which PLP cannot remove (the paper's
   remark) but whose undo fetch-and-adds IFAA makes commute. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef N
#define N 3
#endif
#define BIAS 0x00100000

atomic_int lock = BIAS;
int data;

static void read_lock(void) {
    while (1) {
        if (atomic_fetch_sub(&lock, 1) > 0) return;
        atomic_fetch_add(&lock, 1);
        while (atomic_load(&lock) <= 0) {
        }
    }
}

static void read_unlock(void) { atomic_fetch_add(&lock, 1); }

static void write_lock(void) {
    while (1) {
        if (atomic_fetch_sub(&lock, BIAS) == BIAS) return;
        atomic_fetch_add(&lock, BIAS);
        while (atomic_load(&lock) != BIAS) {
        }
    }
}

static void write_unlock(void) { atomic_fetch_add(&lock, BIAS); }

static void *writer(void *arg) {
    (void)arg;
    write_lock();
    data = data + 1;
    write_unlock();
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    read_lock();
    int a = data;
    int b = data;
    assert(a == b);
    read_unlock();
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_create(&t[0], 0, writer, 0);
    for (int i = 1; i < N; i++) pthread_create(&t[i], 0, reader, 0);
    for (int i = 0; i < N; i++) pthread_join(t[i], 0);
    return 0;
}
