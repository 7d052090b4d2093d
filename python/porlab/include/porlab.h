/* SPDX-License-Identifier: MIT
 * porlab.h: the verification primitives porlab understands in C programs, with readable wrappers.
 * porlab puts this directory on clang's include path: `#include <porlab.h>`.
 *
 * The intrinsics are the ones Nidhugg's test programs use (SV-COMP names for the rest), so such
 * programs run unchanged without this header.
 */
#ifndef PORLAB_H
#define PORLAB_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Await condition codes (Nidhugg's bit patterns). */
#define AWAIT_COND_UGT 1
#define AWAIT_COND_EQ 2
#define AWAIT_COND_UGE 3
#define AWAIT_COND_ULT 4
#define AWAIT_COND_NE 5
#define AWAIT_COND_ULE 6
#define AWAIT_COND_SGT 9
#define AWAIT_COND_SGE 11
#define AWAIT_COND_SLT 12
#define AWAIT_COND_SLE 14

/* Block until `cond(*addr, operand)` holds, then read *addr (one atomic step). */
int8_t __VERIFIER_load_await_i8(volatile void *addr, int cond, int8_t operand);
int16_t __VERIFIER_load_await_i16(volatile void *addr, int cond, int16_t operand);
int32_t __VERIFIER_load_await_i32(volatile void *addr, int cond, int32_t operand);
int64_t __VERIFIER_load_await_i64(volatile void *addr, int cond, int64_t operand);
/* Block until `cond(*addr, operand)` holds, then read *addr and write `value` (one step). */
int8_t __VERIFIER_xchg_await_i8(volatile void *addr, int8_t value, int cond, int8_t operand);
int16_t __VERIFIER_xchg_await_i16(volatile void *addr, int16_t value, int cond, int16_t operand);
int32_t __VERIFIER_xchg_await_i32(volatile void *addr, int32_t value, int cond, int32_t operand);
int64_t __VERIFIER_xchg_await_i64(volatile void *addr, int64_t value, int cond, int64_t operand);

/* SV-COMP. */
void __VERIFIER_assume(int cond);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int __VERIFIER_nondet_int(void);
unsigned int __VERIFIER_nondet_uint(void);
long __VERIFIER_nondet_long(void);
char __VERIFIER_nondet_char(void);
_Bool __VERIFIER_nondet_bool(void);
void reach_error(void);

/* Readable wrappers. */
static inline int porlab_await_eq(volatile int *x, int v) { return __VERIFIER_load_await_i32(x, AWAIT_COND_EQ, v); }
static inline int porlab_await_ne(volatile int *x, int v) { return __VERIFIER_load_await_i32(x, AWAIT_COND_NE, v); }
static inline int porlab_await_lt(volatile int *x, int v) { return __VERIFIER_load_await_i32(x, AWAIT_COND_SLT, v); }
static inline int porlab_await_le(volatile int *x, int v) { return __VERIFIER_load_await_i32(x, AWAIT_COND_SLE, v); }
static inline int porlab_await_gt(volatile int *x, int v) { return __VERIFIER_load_await_i32(x, AWAIT_COND_SGT, v); }
static inline int porlab_await_ge(volatile int *x, int v) { return __VERIFIER_load_await_i32(x, AWAIT_COND_SGE, v); }
/* Wait until *x == expected, then set it to v; returns the value read. */
static inline int porlab_xchg_await_eq(volatile int *x, int expected, int v) {
    return __VERIFIER_xchg_await_i32(x, v, AWAIT_COND_EQ, expected);
}
static inline void porlab_assume(int cond) { __VERIFIER_assume(cond); }
static inline void porlab_atomic_begin(void) { __VERIFIER_atomic_begin(); }
static inline void porlab_atomic_end(void) { __VERIFIER_atomic_end(); }

#ifdef __cplusplus
}
#endif

#endif /* PORLAB_H */
