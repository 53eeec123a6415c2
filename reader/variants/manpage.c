/*
 * manpage — re-implementation of the self-monitoring sketch in the
 * perf_event_open(2) man page (section "MMAP layout", under
 * cap_usr_rdpmc / pmc_width / time_shift), written from my knowledge of
 * the man page's algorithm, not from its text.  Uncertain points: I
 * recall the man page's loop adding the raw rdpmc(idx - 1) to count
 * directly inside the loop (loading pmc_width there but leaving the sign
 * extension to the separate pmc_width paragraph), and its time paragraph
 * using the ((u64)1 << time_shift) quotient/remainder split and the
 * unguarded count * enabled / running scaling of the pre-2022 uapi
 * comment.  This variant follows the loop literally (no sign extension),
 * which is what sets it apart from uapi_pre2022.
 *
 * Algorithm: loop (no odd check): enabled, running; if cap_usr_time &&
 * enabled != running: rdtsc, time_offset, time_mult, time_shift; idx =
 * index; count = offset; if cap_usr_rdpmc && idx: width = pmc_width,
 * count += rdpmc(idx - 1); retry while the lock moved.  Then delta =
 * time_offset + quot * time_mult + ((rem * time_mult) >> time_shift);
 * enabled += delta; if (idx) running += delta; count = quot * enabled +
 * rem * enabled / running (quot/rem of count / running).  Scaled ABI.
 * (Time variables start at 0 where the man page leaves them unset.)
 *
 * What goes wrong:
 *  - while the event is on a counter, after every reload (sched-in,
 *    rotate_in, enable, migrate, overflow) the raw count is 2^48 too big
 *    (no sign extension), so the scaled result is wrong on practically
 *    every read served by rdpmc; right after IOC_RESET it is correct
 *    until the next reload;
 *  - running == 0 divides by zero (#DE): an event that has never run
 *    (index 0, time_running 0), or a page with time_enabled ==
 *    time_running == 0;
 *  - a retry whose last pass has enabled == running reuses the previous
 *    pass's TSC and time fields (wrong when that pass has index 0);
 *  - rotate_out of an event that had always run so far leaves index 0
 *    with time_enabled == time_running on the page: the enabled !=
 *    running shortcut skips the TSC, enabled is not extrapolated and the
 *    count comes out unscaled while the truth grows as E(t)/R;
 *  - after `disable` of a multiplexed event (index 0, enabled != running)
 *    enabled is extrapolated although the event is OFF: scaled too big;
 *  - no odd-lock check: with a remote writer, a read that runs entirely
 *    inside one update returns torn fields;
 *  - rem * enabled overflows once running * enabled >= 2^64.
 */
#include "prims.h"

uint64_t selfmon_v_manpage(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint32_t seq, time_mult = 0, time_shift = 0, idx, width;
	uint64_t count, enabled, running;
	uint64_t cyc = 0, time_offset = 0;
	uint64_t quot, rem, delta;

	do {
		seq = pc->lock;
		barrier();
		enabled = pc->time_enabled;
		running = pc->time_running;

		if (pc->cap_user_time && enabled != running) {
			cyc = rdtsc();
			time_offset = pc->time_offset;
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
		}

		idx = pc->index;
		count = pc->offset;

		if (pc->cap_user_rdpmc && idx) {
			width = pc->pmc_width;
			(void)width; /* meant for the pmc_width paragraph */
			count += rdpmc(idx - 1);
		}

		barrier();
	} while (pc->lock != seq);

	/* the time_shift, time_mult, time_offset paragraph */
	quot = cyc >> time_shift;
	rem = cyc & (((uint64_t)1 << time_shift) - 1);
	delta = time_offset + quot * time_mult +
	        ((rem * time_mult) >> time_shift);

	enabled += delta;
	if (idx)
		running += delta;

	quot = count / running;
	rem = count % running;
	count = quot * enabled + (rem * enabled) / running;

	return count;
}
