/*
 * jevents_mask48 — re-implementation in the style of jevents' rdpmc_read()
 * (Andi Kleen's pmu-tools, jevents/rdpmc.c), the later form that checks
 * index: seqlock loop (no odd check) with plain loads and compiler
 * barriers: index, offset; if index == 0 return offset at once (no lock
 * re-check); otherwise rdpmc(index - 1); retry while the lock moved.  The
 * rdpmc value is masked to 48 bits — the fixed counter width jevents
 * users assume (its own examples mask saved values with 0xffffffffffff) —
 * and offset is added, with no sign extension and no look at pmc_width or
 * cap_user_rdpmc.  Raw ABI: the raw count.
 *
 * What goes wrong:
 *  - on x86 rdpmc already returns the 48-bit counter zero-extended, so the
 *    mask changes nothing and this is a reader without sign extension:
 *    after every reload (sched-in, rotate_in, enable, migrate, overflow)
 *    the count is 2^48 too big, i.e. on practically every read served by
 *    rdpmc; right after IOC_RESET it is correct until the next reload
 *    (jevents users subtract two reads, which hides the bias);
 *  - index == 0 returns offset without re-checking the lock: an update
 *    that schedules the event in (rotate_in, enable) landing between the
 *    index load and the offset load returns count - prev_count of the new
 *    state, a value near 2^64 - 2^48 + count, not the count; with a
 *    remote writer the same happens whenever index is seen 0 mid-update;
 *  - no odd-lock check: with a remote writer, a read that runs entirely
 *    inside one update returns torn fields;
 *  - a pmc_width above 48 would be truncated (not on x86);
 *  - index != 0 while user rdpmc is not allowed -> rdpmc #GP.
 */
#include "prims.h"

#define JEVENTS_MASK48 0xffffffffffffull

uint64_t selfmon_v_jevents_mask48(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t val, offset;
	unsigned seq, index;

	do {
		seq = pc->lock;
		barrier();
		index = pc->index;
		offset = pc->offset;
		if (index == 0) /* not on a counter: offset is the count */
			return offset;
		val = rdpmc(index - 1);
		barrier();
	} while (pc->lock != seq);

	return (val & JEVENTS_MASK48) + offset;
}
