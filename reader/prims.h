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

#else
#error "selfmon readers: this architecture has no primitives yet"
#endif

/* The reader ABIs of DESIGN.md §5. */
struct selfmon_values {
	uint64_t count, enabled, running;
};
typedef uint64_t (*selfmon_raw_fn)(const void *page);
typedef uint64_t (*selfmon_times_fn)(const void *page, uint64_t *enabled,
                                     uint64_t *running);
typedef uint64_t (*selfmon_scaled_fn)(const void *page);
typedef int (*selfmon_values_fn)(const void *page, int fd,
                                 struct selfmon_values *out);

#endif
