/*
 * manpage — re-implementation of the self-monitoring sketch in the
 * perf_event_open(2) man page (mkerrisk/man-pages, man2/perf_event_open.2,
 * section "MMAP layout": the loop under cap_user_rdpmc "(since Linux
 * 3.12)", then the pmc_width and the time_shift/time_mult/time_offset
 * paragraphs; added by 135cba8b7, 2013, unchanged at ae6b2218, 2021).
 * Checked against the text: the loop loads pmc_width into width but adds
 * the raw rdpmc(idx - 1) to count right there, inside the loop, while the
 * sign extension (pmc <<= 64 - pmc_width; pmc >>= 64 - pmc_width; count
 * += pmc) is a separate paragraph that a reader of the loop never reaches
 * — so this variant follows the loop literally (no sign extension), which
 * is what sets it apart from uapi_pre2022; the time paragraph is the
 * ((u64)1 << time_shift) quotient/remainder split and the unguarded
 * count * enabled / running scaling of the pre-2022 uapi comment.
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
 *  - running == 0 divides by zero (#DE on x86; arm64's udiv gives 0 and
 *    riscv64's divu all ones, so there it is a wrong value): an event that
 *    has never run (index 0, time_running 0), or a page with time_enabled
 *    == time_running == 0;
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
