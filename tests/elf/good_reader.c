/*
 * good_reader.c — a correct values-ABI reader written the way a user would
 * write one, with nothing of selfmon but the page layout (page.h, found
 * with -I model: cross toolchains may lack <linux/perf_event.h>).
 * tests/test_elf.c compiles it with every toolchain it finds, as .o and as
 * .so, and loads it; buggy_reader.c is the same reader without the sign
 * extension of the counter.
 *
 *   int good_read(const void *page, int fd, struct values *out);
 *
 * returns 0 with a count read from the counter, 1 with one from read(2)
 * (the event is not on a counter the task may read), -1 if read(2) fails.
 * Counter access: rdpmc on x86-64, a table of per-counter helpers on arm64
 * (PMEVCNTR<n>_EL0 names its counter in the instruction, PMCCNTR_EL0 is
 * index 32), a switch of csrr on riscv64.
 */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "page.h"

#ifndef READER_ENTRY
#define READER_ENTRY good_read
#endif

struct values {
	uint64_t count, enabled, running;
};

#define CAP(bit) ((uint64_t)1 << (bit))
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define barrier() __asm__ __volatile__("" ::: "memory")

#if defined(__x86_64__)

static uint64_t read_counter(uint32_t idx)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return lo | (uint64_t)hi << 32;
}

static uint64_t read_clock(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}

#elif defined(__aarch64__)

#define PMEV(n)                                                                \
	static uint64_t pmev##n(void)                                          \
	{                                                                      \
		uint64_t v;                                                    \
		__asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v));   \
		return v;                                                      \
	}
PMEV(0) PMEV(1) PMEV(2) PMEV(3) PMEV(4) PMEV(5) PMEV(6) PMEV(7)
PMEV(8) PMEV(9) PMEV(10) PMEV(11) PMEV(12) PMEV(13) PMEV(14) PMEV(15)
PMEV(16) PMEV(17) PMEV(18) PMEV(19) PMEV(20) PMEV(21) PMEV(22) PMEV(23)
PMEV(24) PMEV(25) PMEV(26) PMEV(27) PMEV(28) PMEV(29) PMEV(30)

static uint64_t pmccntr(void)
{
	uint64_t v;

	__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
	return v;
}

static uint64_t (*const counters[32])(void) = {
	pmev0, pmev1, pmev2, pmev3, pmev4, pmev5, pmev6, pmev7,
	pmev8, pmev9, pmev10, pmev11, pmev12, pmev13, pmev14, pmev15,
	pmev16, pmev17, pmev18, pmev19, pmev20, pmev21, pmev22, pmev23,
	pmev24, pmev25, pmev26, pmev27, pmev28, pmev29, pmev30, pmccntr,
};

static uint64_t read_counter(uint32_t idx)
{
	return idx < 32 ? counters[idx]() : 0;
}

static uint64_t read_clock(void)
{
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

#elif defined(__riscv) && __riscv_xlen == 64

#define CSR(n)                                                                 \
	case n:                                                                \
		__asm__ __volatile__("csrr %0, %1" : "=r"(v) : "i"(0xc00 + n)); \
		break;

static uint64_t read_counter(uint32_t idx)
{
	uint64_t v = 0;

	switch (idx) {
	CSR(0) CSR(1) CSR(2) CSR(3) CSR(4) CSR(5) CSR(6) CSR(7)
	CSR(8) CSR(9) CSR(10) CSR(11) CSR(12) CSR(13) CSR(14) CSR(15)
	CSR(16) CSR(17) CSR(18) CSR(19) CSR(20) CSR(21) CSR(22) CSR(23)
	CSR(24) CSR(25) CSR(26) CSR(27) CSR(28) CSR(29) CSR(30) CSR(31)
	}
	return v;
}

static uint64_t read_clock(void)
{
	uint64_t v;

	__asm__ __volatile__("rdtime %0" : "=r"(v));
	return v;
}

#else
#error "good_reader.c: x86-64, arm64 or riscv64"
#endif

/* The counter is pmc_width bits wide: its top bit is the sign. */
static uint64_t counter_value(uint64_t raw, unsigned width)
{
#ifdef READER_NO_SIGN_EXTEND
	(void)width;
	return raw;
#elif defined(READER_EXTEND) /* the includer's (ordinary_lib.c) */
	return READER_EXTEND(raw, width);
#else
	if (width == 0 || width >= 64)
		return raw;
	return (uint64_t)((int64_t)(raw << (64 - width)) >> (64 - width));
#endif
}

/* time_offset + cyc * time_mult >> time_shift, without losing bits. */
static uint64_t cycles_to_ns(uint64_t cyc, uint32_t mult, unsigned shift)
{
	return (uint64_t)(((unsigned __int128)cyc * mult) >> shift);
}

static int from_read(int fd, struct values *out)
{
	uint64_t buf[3];

	if (read(fd, buf, 24) != 24)
		return -1;
	out->count = buf[0];
	out->enabled = buf[1];
	out->running = buf[2];
	return 1;
}

int READER_ENTRY(const void *page, int fd, struct values *out)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t caps, count, enabled, running, delta, cyc;
	uint64_t time_cycles, time_mask;
	uint32_t seq, idx;
	uint16_t width;

	do {
		seq = READ_ONCE(pc->lock);
		barrier();
		if (seq & 1)
			continue;
		enabled = READ_ONCE(pc->time_enabled);
		running = READ_ONCE(pc->time_running);
		caps = READ_ONCE(pc->capabilities);
		delta = 0;
		if (caps & CAP(SELFMON_CAP_USER_TIME)) {
			cyc = read_clock();
			if (caps & CAP(SELFMON_CAP_USER_TIME_SHORT)) {
				time_cycles = READ_ONCE(pc->time_cycles);
				time_mask = READ_ONCE(pc->time_mask);
				cyc = time_cycles + ((cyc - time_cycles) & time_mask);
			}
			delta = READ_ONCE(pc->time_offset) +
			        cycles_to_ns(cyc, READ_ONCE(pc->time_mult),
			                     READ_ONCE(pc->time_shift));
		}
		idx = READ_ONCE(pc->index);
		count = (uint64_t)READ_ONCE(pc->offset);
		width = READ_ONCE(pc->pmc_width);
		if (!(caps & CAP(SELFMON_CAP_USER_RDPMC)) || !idx)
			return from_read(fd, out);
		count += counter_value(read_counter(idx - 1), width);
		barrier();
	} while (READ_ONCE(pc->lock) != seq || (seq & 1));

	/* after PERF_EVENT_IOC_RESET the kernel's prev_count is zero-extended */
	if ((int64_t)count < 0 && width < 64)
		count += 1ull << width;
	out->count = count;
	out->enabled = enabled + delta;
	out->running = running + delta;
	return 0;
}
