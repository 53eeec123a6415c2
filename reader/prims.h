/*
 * prims.h — the primitives a reader is written with, in three flavours.
 *
 * Owns: rdpmc(), rdtsc(), sys_read() and barrier() for reader sources
 * (reader/selfmon.c and the variants in reader/variants/).  One source, built three ways:
 *   SELFMON_PRIMS_ROUTED   the native engine: calls into sim/ that answer
 *                          from the kernel model (and inject actions);
 *   SELFMON_PRIMS_BLOB     freestanding machine code run in Unicorn: the
 *                          real instructions, read(2) as a raw syscall;
 *   (neither)              the real thing: libselfmon on real hardware.
 * Readers include this file and nothing else of the project but page.h.
 */
#ifndef SELFMON_PRIMS_H
#define SELFMON_PRIMS_H

#include <stddef.h>
#include <stdint.h>

#include "page.h"
#include "selfmon.h"

#define barrier() __asm__ __volatile__("" ::: "memory")

/* One load the compiler may not split, merge or repeat. */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))

#if defined(SELFMON_PRIMS_ROUTED)

uint64_t selfmon_routed_rdpmc(uint32_t counter);
uint64_t selfmon_routed_rdtsc(void);
long selfmon_routed_read(int fd, void *buf, size_t n);
#define rdpmc(c) selfmon_routed_rdpmc(c)
#define rdtsc() selfmon_routed_rdtsc()
#define sys_read(fd, buf, n) selfmon_routed_read((fd), (buf), (n))

#elif defined(__x86_64__)

static inline uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (uint64_t)hi << 32;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}

#if defined(SELFMON_PRIMS_BLOB)
static inline long sys_read(int fd, void *buf, size_t n)
{
	long ret;
	__asm__ __volatile__("syscall"
	                     : "=a"(ret)
	                     : "0"(0L), "D"((long)fd), "S"(buf), "d"(n)
	                     : "rcx", "r11", "memory");
	return ret;
}
#else
#include <errno.h>
#include <unistd.h>
/* read(2) with the kernel's convention: -errno on failure. */
static inline long sys_read(int fd, void *buf, size_t n)
{
	long r = (long)read(fd, buf, n);
	return r < 0 ? -errno : r;
}
#endif

#elif defined(__aarch64__)

/* PMEVCNTR<n>_EL0 names its counter in the instruction: one case each. */
#define SELFMON_PMEV(n)                                                        \
	case n:                                                                \
		__asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v));   \
		break;

static inline uint64_t rdpmc(uint32_t counter)
{
	uint64_t v = 0;

	switch (counter) {
	SELFMON_PMEV(0) SELFMON_PMEV(1) SELFMON_PMEV(2) SELFMON_PMEV(3)
	SELFMON_PMEV(4) SELFMON_PMEV(5) SELFMON_PMEV(6) SELFMON_PMEV(7)
	SELFMON_PMEV(8) SELFMON_PMEV(9) SELFMON_PMEV(10) SELFMON_PMEV(11)
	SELFMON_PMEV(12) SELFMON_PMEV(13) SELFMON_PMEV(14) SELFMON_PMEV(15)
	SELFMON_PMEV(16) SELFMON_PMEV(17) SELFMON_PMEV(18) SELFMON_PMEV(19)
	SELFMON_PMEV(20) SELFMON_PMEV(21) SELFMON_PMEV(22) SELFMON_PMEV(23)
	SELFMON_PMEV(24) SELFMON_PMEV(25) SELFMON_PMEV(26) SELFMON_PMEV(27)
	SELFMON_PMEV(28) SELFMON_PMEV(29) SELFMON_PMEV(30)
	case 31:
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	}
	return v;
}

static inline uint64_t rdtsc(void)
{
	uint64_t v;
	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

/* PMSELR_EL0 then PMXEVCNTR_EL0: the select-then-read pair. */
static inline void pmselr(uint32_t counter)
{
	__asm__ __volatile__("msr pmselr_el0, %0; isb" :: "r"((uint64_t)counter)
	                     : "memory");
}

static inline uint64_t pmxevcntr(void)
{
	uint64_t v;
	__asm__ __volatile__("mrs %0, pmxevcntr_el0" : "=r"(v));
	return v;
}

#define rmb() __asm__ __volatile__("dmb ishld" ::: "memory")

#if defined(SELFMON_PRIMS_BLOB)
static inline long sys_read(int fd, void *buf, size_t n)
{
	register long x0 __asm__("x0") = fd;
	register long x1 __asm__("x1") = (long)buf;
	register long x2 __asm__("x2") = (long)n;
	register long x8 __asm__("x8") = 63; /* __NR_read */
	__asm__ __volatile__("svc #0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x8)
	                     : "memory");
	return x0;
}
#endif

#elif defined(__riscv) && __riscv_xlen == 64

/* csrr names its CSR in the instruction: one case each. */
#define SELFMON_CSR(n)                                                         \
	case n:                                                                \
		__asm__ __volatile__("csrr %0, %1" : "=r"(v) : "i"(0xC00 + n)); \
		break;

static inline uint64_t rdpmc(uint32_t counter)
{
	uint64_t v = 0;

	switch (counter) {
	SELFMON_CSR(0) SELFMON_CSR(1) SELFMON_CSR(2) SELFMON_CSR(3)
	SELFMON_CSR(4) SELFMON_CSR(5) SELFMON_CSR(6) SELFMON_CSR(7)
	SELFMON_CSR(8) SELFMON_CSR(9) SELFMON_CSR(10) SELFMON_CSR(11)
	SELFMON_CSR(12) SELFMON_CSR(13) SELFMON_CSR(14) SELFMON_CSR(15)
	SELFMON_CSR(16) SELFMON_CSR(17) SELFMON_CSR(18) SELFMON_CSR(19)
	SELFMON_CSR(20) SELFMON_CSR(21) SELFMON_CSR(22) SELFMON_CSR(23)
	SELFMON_CSR(24) SELFMON_CSR(25) SELFMON_CSR(26) SELFMON_CSR(27)
	SELFMON_CSR(28) SELFMON_CSR(29) SELFMON_CSR(30) SELFMON_CSR(31)
	}
	return v;
}

static inline uint64_t rdtsc(void)
{
	uint64_t v;
	__asm__ __volatile__("rdtime %0" : "=r"(v));
	return v;
}

#define rmb() __asm__ __volatile__("fence r, r" ::: "memory")

#if defined(SELFMON_PRIMS_BLOB)
static inline long sys_read(int fd, void *buf, size_t n)
{
	register long a0 __asm__("a0") = fd;
	register long a1 __asm__("a1") = (long)buf;
	register long a2 __asm__("a2") = (long)n;
	register long a7 __asm__("a7") = 63; /* __NR_read */
	__asm__ __volatile__("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7)
	                     : "memory");
	return a0;
}
#endif

#else
#error "selfmon readers: this architecture has no primitives yet"
#endif

#if !defined(SELFMON_PRIMS_BLOB) && !defined(SELFMON_PRIMS_ROUTED) &&          \
	!defined(__x86_64__)
#include <errno.h>
#include <unistd.h>
static inline long sys_read(int fd, void *buf, size_t n)
{
	long r = (long)read(fd, buf, n);
	return r < 0 ? -errno : r;
}
#endif

/* Load ordering between the page loads and the lock re-check: x86 keeps
 * loads in order, so a compiler barrier is enough there. */
#ifndef rmb
#define rmb() barrier()
#endif

/* The reader ABIs (README.md, Checking readers); the values ABI's result
 * is the public struct selfmon_value (selfmon.h). */
typedef uint64_t (*selfmon_raw_fn)(const void *page);
typedef uint64_t (*selfmon_times_fn)(const void *page, uint64_t *enabled,
                                     uint64_t *running);
typedef uint64_t (*selfmon_scaled_fn)(const void *page);
typedef int (*selfmon_values_fn)(const void *page, int fd,
                                 struct selfmon_value *out);
/* The two-call ABIs: the first function at one instant, the read at a
 * later one, on the same ctx (SELFMON_CTX_SIZE bytes of the reader's own,
 * zero before the first call, kept between the calls).  delta: start,
 * then the count's change since it; reset: a software reset, then count,
 * enabled and running since it (the read's return as the values ABI's). */
#define SELFMON_CTX_SIZE 256
typedef void (*selfmon_start_fn)(const void *page, int fd, void *ctx);
typedef uint64_t (*selfmon_delta_fn)(const void *page, int fd, void *ctx);
typedef int (*selfmon_since_fn)(const void *page, int fd, void *ctx,
                                struct selfmon_value *out);

#endif
