/*
 * jevents_mask48 — re-implementation of rdpmc_read() in Andi Kleen's
 * pmu-tools (andikleen/pmu-tools, jevents/rdpmc.c), as it has been since
 * 30d4df60a6d4 "jevents: Mask RDPMC with 48bit mask" (2019-09-10, the
 * fix for pmu-tools issue #173; unchanged at the newest snapshot read,
 * 2568760ffc93).
 *
 * Algorithm: seqlock loop with plain loads and compiler-only barriers
 * (jevents' rmb() is an empty asm with a memory clobber), no odd-lock
 * check: lock, index, offset; if index == 0 ("rdpmc not allowed") the
 * counter part is 0 and the loop is left at once — the lock is not read
 * again; otherwise rdpmc(index - 1) and retry while the lock moved.  The
 * result is (rdpmc + offset) & (2^48 - 1): the 48-bit mask applies to the
 * SUM, so the 2^48 that a zero-extended counter and a sign-extended
 * prev_count leave between them cancels, whichever of the two the kernel
 * used (reload or IOC_RESET).  No look at cap_user_rdpmc or pmc_width.
 * Before that commit rdpmc_read() returned rdpmc + offset unmasked, and
 * from 61df8b59e19b (2016) to then index == 0 returned offset itself.
 * Raw ABI: the raw count.
 *
 * What goes wrong:
 *  - the count is only ever right modulo 2^48: a true count of 2^48 or
 *    more (a few overflow bursts of a 2^47 period) comes back small;
 *  - pmc_width is not 48: on arm64 a 32-bit event counter and its
 *    offset leave 2^32 between them, which the 48-bit mask keeps: the
 *    count is 2^32 too big after every reload (a 32-bit event on a 64-bit
 *    counter — PMCCNTR, or PMUv3p5 long counters — carries the
 *    upper-32-bit bias, which cancels in the sum: right);
 *  - index == 0 leaves the loop without re-reading the lock: an update
 *    that puts the event back on a counter (rotate_in, enable) between
 *    the index load and the offset load returns the new offset alone
 *    (count + left, masked), not the count; a remote writer's half-done
 *    update can do the same;
 *  - no odd-lock check: with a remote writer, a read that runs entirely
 *    inside one update returns torn fields;
 *  - index != 0 while user rdpmc is not allowed -> rdpmc #GP (x86).
 * On x86-64 and on riscv64's 48- and 64-bit counters it is otherwise
 * right, after reloads and IOC_RESET alike.
 */
#include "prims.h"

#define JEVENTS_MASK48 0xffffffffffffull

uint64_t selfmon_v_jevents_mask48(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t pmc, offset;
	uint32_t seq, index;

	for (;;) {
		seq = pc->lock;
		barrier();
		index = pc->index;
		offset = (uint64_t)pc->offset;
		if (!index) {
			pmc = 0; /* not on a counter: leave, no re-check */
			break;
		}
		pmc = rdpmc(index - 1);
		barrier();
		if (pc->lock == seq)
			break;
	}

	return (pmc + offset) & JEVENTS_MASK48;
}
