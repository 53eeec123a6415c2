/*
 * counter_read.c — the sample library's reader (see counter.h): the
 * seqlock loop of the perf_event_mmap_page, the counter read with rdpmc
 * (x86-64), mrs (arm64) or csrr (riscv64), sign-extended from pmc_width
 * and corrected for the IOC_RESET quirk, enabled/running extrapolated
 * with the page's time fields, and read(2) when the page cannot say.
 * Written the way a library would, against <linux/perf_event.h>; selfmon
 * checks this object's machine code for every arch it is built for.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <unistd.h>

#include "counter.h"

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define barrier() __asm__ __volatile__("" ::: "memory")
#define CAP_USER_RDPMC ((uint64_t)1 << 2)
#define CAP_USER_TIME ((uint64_t)1 << 3)
#define CAP_USER_TIME_SHORT ((uint64_t)1 << 5)

#if defined(__x86_64__)
static inline uint64_t read_counter(uint32_t c)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(c));
	return lo | (uint64_t)hi << 32;
}

static inline uint64_t read_cycles(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}
#elif defined(__aarch64__)
#define PMEV(n) case n: __asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break;
static inline uint64_t read_counter(uint32_t c)
{
	uint64_t v = 0;
	switch (c) {
	PMEV(0) PMEV(1) PMEV(2) PMEV(3) PMEV(4) PMEV(5) PMEV(6) PMEV(7)
	PMEV(8) PMEV(9) PMEV(10) PMEV(11) PMEV(12) PMEV(13) PMEV(14) PMEV(15)
	PMEV(16) PMEV(17) PMEV(18) PMEV(19) PMEV(20) PMEV(21) PMEV(22) PMEV(23)
	PMEV(24) PMEV(25) PMEV(26) PMEV(27) PMEV(28) PMEV(29) PMEV(30)
	case 31: __asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v)); break;
	}
	return v;
}

static inline uint64_t read_cycles(void)
{
	uint64_t v;
	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}
#undef barrier
#define barrier() __asm__ __volatile__("dmb ishld" ::: "memory")
#elif defined(__riscv) && __riscv_xlen == 64
#define CSR(n) case n: __asm__ __volatile__("csrr %0, %1" : "=r"(v) : "i"(0xC00 + n)); break;
static inline uint64_t read_counter(uint32_t c)
{
	uint64_t v = 0;
	switch (c) {
	CSR(0) CSR(1) CSR(2) CSR(3) CSR(4) CSR(5) CSR(6) CSR(7) CSR(8) CSR(9)
	CSR(10) CSR(11) CSR(12) CSR(13) CSR(14) CSR(15) CSR(16) CSR(17) CSR(18)
	CSR(19) CSR(20) CSR(21) CSR(22) CSR(23) CSR(24) CSR(25) CSR(26) CSR(27)
	CSR(28) CSR(29) CSR(30) CSR(31)
	}
	return v;
}

static inline uint64_t read_cycles(void)
{
	uint64_t v;
	__asm__ __volatile__("rdtime %0" : "=r"(v));
	return v;
}
#undef barrier
#define barrier() __asm__ __volatile__("fence r, r" ::: "memory")
#else
#error "counter_read: no counter access for this architecture"
#endif

static uint64_t sign_extend(uint64_t v, unsigned width)
{
#ifdef COUNTER_NO_SIGN_EXTENSION
	(void)width;
	return v;
#else
	if (width == 0 || width >= 64)
		return v;
	return (uint64_t)((int64_t)(v << (64 - width)) >> (64 - width));
#endif
}

/* After IOC_RESET the kernel's prev_count is zero-extended: a count that
 * comes out negative is 2^width low. */
static uint64_t reset_fix(uint64_t count, unsigned width)
{
	if (width < 64 && (int64_t)count < 0)
		count += (uint64_t)1 << width;
	return count;
}

/* The time since the page's last update, in ns (0 without user time). */
static uint64_t time_delta(const struct perf_event_mmap_page *pc,
                           uint64_t caps)
{
	if (!(caps & CAP_USER_TIME))
		return 0;
	uint32_t mult = READ_ONCE(pc->time_mult);
	uint16_t shift = READ_ONCE(pc->time_shift);
	uint64_t offset = READ_ONCE(pc->time_offset), cyc = read_cycles();
	if (caps & CAP_USER_TIME_SHORT) {
		uint64_t base = READ_ONCE(pc->time_cycles);
		cyc = base + ((cyc - base) & READ_ONCE(pc->time_mask));
	}
	return offset + (uint64_t)(((unsigned __int128)cyc * mult) >> shift);
}

static int read_fallback(int fd, struct counter_value *out)
{
	uint64_t buf[3];
	if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return -1;
	out->count = buf[0];
	out->enabled = buf[1];
	out->running = buf[2];
	return 1;
}

int counter_read(const void *page, int fd, struct counter_value *out)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t enabled, running, count, delta, caps;
	uint32_t seq, idx;
	int rdpmc_ok;

	for (;;) {
		seq = READ_ONCE(pc->lock);
		barrier();
		if (seq & 1)
			continue;
		enabled = READ_ONCE(pc->time_enabled);
		running = READ_ONCE(pc->time_running);
		caps = READ_ONCE(pc->capabilities);
		delta = time_delta(pc, caps);
		rdpmc_ok = (caps & CAP_USER_RDPMC) != 0;
		idx = READ_ONCE(pc->index);
		count = (uint64_t)READ_ONCE(pc->offset);
		uint16_t width = READ_ONCE(pc->pmc_width);
		if (rdpmc_ok && idx)
			count = reset_fix(count + sign_extend(read_counter(idx - 1),
			                                      width), width);
		barrier();
		if (READ_ONCE(pc->lock) == seq)
			break;
	}
	if (!rdpmc_ok || !idx)
		return read_fallback(fd, out);
	out->count = count;
	out->enabled = enabled + delta;
	out->running = running + delta;
	return 0;
}
