/* mpmc-queue-cds(N): Dmitry Vyukov's bounded MPMC queue mpmc_boundq_1_alt as in CDSChecker's
   mpmc-queue test (and the GenMC/Nidhugg benchmark suites; Godot Table I and SAVER Table II,
   mpmc-queue). One word m_rdwr holds the indices of the reads (high 16 bits) and of the writes
   (low 16 bits) that have started; m_read and m_written count the ones that have finished.
   write_prepare claims slot wr with a CAS on m_rdwr (failing when the queue is full), then waits
   until every read that started before it has finished (m_read == rd) and returns the slot;
   write_publish increments m_written. read_fetch claims slot rd (failing when the queue is
   empty), waits until every write that started before it has been published (m_written == wr);
   read_consume increments m_read. The queue has sizeof(int32_t) = 4 slots (CDSChecker's
   mpmc_boundq_1_alt<int32_t, sizeof(int32_t)>). main puts in an initial element (CDSChecker's
   default, without CONFIG_MPMC_NO_INITIAL_ELEMENT), then starts 1 writer, 1 reader and N-2
   "rdwr" threads that write one element and then read; a reader reads until the queue is empty,
   checking each value. CDSChecker's thrd_yield() in the loops is left out (it is no event).
   The CAS loops reload m_rdwr at the top of each try; -DCDS_CAS=1 uses CDSChecker's shape
   instead (m_rdwr read once, a failed compare_exchange_weak refreshing the expected value).

   Reproduces Godot Table I exactly for mpmc-queue(3) with `--unroll 4`
   (Nidhugg's bound 4): PLP 166+840, PLP+Await 166+517, +IFAA 76+421, and
   with -DCDS_CAS=1 the Nidhugg baseline (`--loops spin-assume`) 11206+8188. `--loops saver`
   gives 166 complete executions, the SAVER paper's SAVER count. mpmc-queue(4) (-DN=4) matches
   PLP 39706+1123234, PLP+Await 39706+360426 and +IFAA 5410+114208 also with `--unroll 4`,
   i.e. the same bound as for N = 3: with `--unroll 5` the totals are the same but the 500 (IFAA:
   252) executions where one thread reads all four elements are complete, not blocked (40206+
   1122734, 40206+359926, 5662+113956).
   Not reproduced: the Nidhugg baseline with the default CAS loops (porlab 24460+19610), and PLP
   with -DCDS_CAS=1: porlab's PLP keeps a loop whose failed CAS changes the expected value (a
   live header phi) as impure, so there every column is 11206+8188 (IFAA 6920+7476). `--loops
   none` gives 659146+156971 (-DCDS_CAS=1: 360340+84880), not GenMC\S's 1232884, and no porlab
   mode gives GenMC's 15808. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#ifndef N
#define N 3
#endif
#ifndef CDS_CAS
#define CDS_CAS 0
#endif
#define T_SIZE 4 /* sizeof(int32_t) */
#define WRITERS 1
#define READERS 1
#define RDWR (N - 2)

int m_array[T_SIZE];
atomic_uint m_rdwr;    /* started reads << 16 | started writes */
atomic_uint m_read;    /* finished reads */
atomic_uint m_written; /* finished writes */

static int *read_fetch(void) {
    unsigned rdwr, rd, wr;
#if CDS_CAS
    rdwr = atomic_load(&m_rdwr);
#endif
    for (;;) {
#if !CDS_CAS
        rdwr = atomic_load(&m_rdwr);
#endif
        rd = (rdwr >> 16) & 0xFFFF;
        wr = rdwr & 0xFFFF;
        if (wr == rd) return NULL; /* empty */
        if (atomic_compare_exchange_weak(&m_rdwr, &rdwr, rdwr + (1u << 16))) break;
    }
    while ((atomic_load(&m_written) & 0xFFFF) != wr) {
    }
    return &m_array[rd % T_SIZE];
}

static void read_consume(void) { atomic_fetch_add(&m_read, 1); }

static int *write_prepare(void) {
    unsigned rdwr, rd, wr;
#if CDS_CAS
    rdwr = atomic_load(&m_rdwr);
#endif
    for (;;) {
#if !CDS_CAS
        rdwr = atomic_load(&m_rdwr);
#endif
        rd = (rdwr >> 16) & 0xFFFF;
        wr = rdwr & 0xFFFF;
        if (wr == ((rd + T_SIZE) & 0xFFFF)) return NULL; /* full */
        if (atomic_compare_exchange_weak(&m_rdwr, &rdwr, (rd << 16) | ((wr + 1) & 0xFFFF))) break;
    }
    while ((atomic_load(&m_read) & 0xFFFF) != rd) {
    }
    return &m_array[wr % T_SIZE];
}

static void write_publish(void) { atomic_fetch_add(&m_written, 1); }

static void put(int v) {
    int *bin = write_prepare();
    if (bin == NULL) return; /* full: only possible for N > 4 */
    *bin = v;
    write_publish();
}

static void get_all(void) {
    int *bin;
    while ((bin = read_fetch()) != NULL) {
        int v = *bin;
        assert(v == 1 || v == 17);
        read_consume();
    }
}

static void *writer(void *arg) {
    (void)arg;
    put(1);
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    get_all();
    return 0;
}

static void *rdwr(void *arg) {
    (void)arg;
    put(1);
    get_all();
    return 0;
}

int main(void) {
    pthread_t a[WRITERS], b[READERS], c[RDWR > 0 ? RDWR : 1];
    put(17); /* the initial element */
    for (int i = 0; i < WRITERS; i++) pthread_create(&a[i], 0, writer, 0);
    for (int i = 0; i < READERS; i++) pthread_create(&b[i], 0, reader, 0);
    for (int i = 0; i < RDWR; i++) pthread_create(&c[i], 0, rdwr, 0);
    for (int i = 0; i < WRITERS; i++) pthread_join(a[i], 0);
    for (int i = 0; i < READERS; i++) pthread_join(b[i], 0);
    for (int i = 0; i < RDWR; i++) pthread_join(c[i], 0);
    return 0;
}
