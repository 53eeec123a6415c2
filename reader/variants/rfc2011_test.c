/*
 * rfc2011_test — re-implementation of the "x86 rdpmc test" reader of the
 * 2011 RFC thread (seed 002, perf-tools-test-rdpmc.patch:
 * mmap_read_self(addr, enabled, running) in tools/perf/builtin-test.c).
 *
 * Algorithm as published: spin while the lock is odd; if the caller wants
 * times and time_mult != 0, read the TSC and convert it with the
 * quotient/remainder split, the remainder mask built as the int
 * (1 << time_shift) - 1; store time_enabled + delta and time_running +
 * delta (running is extrapolated even when index == 0); if index != 0 the
 * count is rdpmc(index - 1) + offset, with no sign extension and no
 * cap_user_rdpmc check; index == 0 is a failure ("XXX do read() here":
 * the original printed FAIL and returned 0, this one returns 0 silently);
 * retry while the lock moved.  Page fields are plain loads, as in the
 * original (pc->index and pc->time_shift are loaded more than once).
 * One change: the original left `delta` uninitialised when time_mult ==
 * 0; here it starts at 0 (no extrapolation) to keep the code defined.
 *
 * What goes wrong:
 *  - the count is the true count + 2^48 after every reload (sched-in,
 *    rotate_in, enable, migrate, overflow), i.e. on practically every
 *    read: no sign extension; it is right only after IOC_RESET until the
 *    next reload;
 *  - index == 0 (rotate_out, disable, software event, rdpmc disallowed)
 *    returns count 0 instead of the event's count;
 *  - without cap_user_time (time_mult == 0) enabled/running are those of
 *    the last page update, stale as soon as time has passed;
 *  - time_shift >= 32 would break the int mask (the kernel clamps to 31);
 *  - pc->index is loaded twice (test, then rdpmc argument) with no barrier
 *    between: if the compiler keeps both loads, a rotate_out between them
 *    makes it execute rdpmc(0xffffffff) -> #GP.  (gcc -O2 merges them.)
 */
#include "prims.h"

uint64_t selfmon_v_rfc2011_test(const void *page, uint64_t *enabled,
                                uint64_t *running)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t count, delta = 0;
	uint32_t seq;

	do {
		/* wait for the kernel to finish an update */
		for (;;) {
			seq = pc->lock;
			barrier();
			if (!(seq & 1))
				break;
		}

		if ((enabled || running) && pc->time_mult) {
			uint64_t cyc = rdtsc();
			uint64_t quot = cyc >> pc->time_shift;
			uint64_t rem = cyc & ((1 << pc->time_shift) - 1);

			delta = pc->time_offset + quot * pc->time_mult +
			        ((rem * pc->time_mult) >> pc->time_shift);
		}

		if (enabled)
			*enabled = pc->time_enabled + delta;
		if (running)
			*running = pc->time_running + delta;

		if (!pc->index)
			return 0; /* the published "goto fail": no read() yet */
		count = rdpmc(pc->index - 1);
		count += pc->offset;

		barrier();
	} while (pc->lock != seq);

	return count;
}
