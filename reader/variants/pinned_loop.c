/*
 * pinned_loop — re-implementation of the "pinned events" mmap_read_self
 * Ingo Molnar measured in the 2011 RFC thread (seed 002, reply to "[RFC]
 * [PATCH 0/6] perf: x86 RDPMC and RDTSC support"): Peter's reader with
 * "the tsc and scaling muck" stripped out, for counters that are assumed
 * to be always on the PMU.
 *
 * Algorithm as published: seqlock loop (no odd check): index, offset, and
 * if index != 0 add the raw rdpmc(index - 1); retry while the lock moved.
 * No cap_user_rdpmc check, no sign extension, no times.  Plain loads with
 * barrier() as in the original.  Returns the raw count.
 *
 * What goes wrong:
 *  - after every reload (sched-in, rotate_in, enable, migrate, overflow)
 *    the count is 2^48 too big (no sign extension): in practice on every
 *    read while the event is on a counter; right after IOC_RESET it is
 *    correct until the next reload;
 *  - index == 0 is handled correctly by accident: the count is offset,
 *    which then holds the whole count;
 *  - no odd-lock check: with a remote writer, a read that runs entirely
 *    inside one update (lock odd at both loads) returns torn fields;
 *  - index != 0 while user rdpmc is not allowed -> rdpmc #GP.
 */
#include "prims.h"

uint64_t selfmon_v_pinned_loop(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint32_t seq, idx;
	uint64_t count;

	do {
		seq = pc->lock;
		barrier();

		idx = pc->index;
		count = pc->offset;
		if (idx)
			count += rdpmc(idx - 1);

		barrier();
	} while (pc->lock != seq);

	return count;
}
