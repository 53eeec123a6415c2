/*
 * lttng_reader.c — a raw-ABI reader in the manner of lttng-ust's perf
 * counter context: the event is opened with read_format 0 (none), and the
 * fallback reads the bare 8-byte count with read(2).  Written for
 * test_cpath's read_format test from the behaviour described, not from
 * lttng-ust's code.
 *
 *   uint64_t lttng_style_read(const void *page);
 *
 * x86-64: a seqlock loop around index, offset and a sign-extended rdpmc
 * while cap_user_rdpmc and index say the counter may be read, else
 * read(2) of 8 bytes; arm64 and riscv64 (which lttng-ust reads with the
 * syscall only): read(2) of 8 bytes.  A short or failed read gives 0.
 * The event's fd is 3 in the simulation.
 *
 * Right with read_format none; with the kernel's default
 * TOTAL_TIME_ENABLED|RUNNING its 8-byte read(2) gets -ENOSPC (the kernel
 * needs 24 bytes) and it returns 0.
 */
#include <stdint.h>
#include <unistd.h>

#include "page.h"

#define EVENT_FD 3
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define barrier() __asm__ __volatile__("" ::: "memory")

static uint64_t count_by_read(void)
{
	uint64_t count = 0;

	if (read(EVENT_FD, &count, sizeof(count)) != (ssize_t)sizeof(count))
		return 0;
	return count;
}

#if defined(__x86_64__)
static uint64_t rdpmc(uint32_t idx)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return lo | (uint64_t)hi << 32;
}

uint64_t lttng_style_read(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t count;
	uint32_t seq;

	do {
		seq = READ_ONCE(pc->lock);
		barrier();
		uint32_t idx = READ_ONCE(pc->index);
		if (pc->cap_user_rdpmc && idx) {
			unsigned w = READ_ONCE(pc->pmc_width);
			int64_t pmc = (int64_t)(rdpmc(idx - 1) << (64 - w));
			count = READ_ONCE(pc->offset) + (uint64_t)(pmc >> (64 - w));
		} else {
			count = count_by_read();
		}
		barrier();
	} while (READ_ONCE(pc->lock) != seq);
	return count;
}
#else
uint64_t lttng_style_read(const void *page)
{
	(void)page;
	return count_by_read();
}
#endif
