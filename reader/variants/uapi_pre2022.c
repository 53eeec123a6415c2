/*
 * uapi_pre2022 — re-implementation of the self-monitoring reader that the
 * comments of struct perf_event_mmap_page in include/uapi/linux/
 * perf_event.h described before the 2022 patch "perf: Align user space
 * counter reading with code" (seed 000 shows that patch; this is its
 * "before" side), assembled the way a reader of the header would: the
 * seqlock loop of the `lock` comment, then the pmc_width paragraph, then
 * the time_shift/time_mult/time_offset paragraph.
 *
 * Algorithm as documented then:
 *   loop (no odd check): enabled, running; if cap_usr_time && enabled !=
 *   running: rdtsc, time_offset, time_mult, time_shift; index; count =
 *   offset; if cap_user_rdpmc && index: width = pmc_width, pmc =
 *   rdpmc(index - 1); retry while the lock moved.
 *   pmc_width paragraph: pmc <<= 64 - width; pmc >>= 64 - width (signed);
 *   count += pmc.
 *   time paragraph: quot = cyc >> time_shift; rem = cyc & (((u64)1 <<
 *   time_shift) - 1); delta = time_offset + quot * time_mult + ((rem *
 *   time_mult) >> time_shift); enabled += delta; if (index) running +=
 *   delta; count = quot * enabled + rem * enabled / running with quot/rem
 *   of count / running — no running == 0 guard, no time_cycles/time_mask.
 * The documentation declares pmc = 0 once, before the loop, and leaves
 * the time variables and width unset when they are not loaded; here they
 * start at 0 (width at 64) so that the unused paths compute 0, and, as in
 * the documentation, none of them is reset on a retry.  Scaled ABI: the
 * result is the scaled count.
 *
 * What goes wrong:
 *  - after IOC_RESET (sign extension vs the kernel's zero-extended
 *    prev_count) the count is 2^pmc_width too small (2^48 on x86,
 *    2^32 on arm64) until the next reload;
 *  - running == 0 divides by zero (#DE on x86; arm64's udiv gives 0 and
 *    riscv64's divu all ones, so there it is a wrong value): an event that
 *    has never run (index 0 and time_running 0), or a page whose
 *    time_enabled == time_running == 0 (no extrapolation then);
 *  - pmc survives a retry: a rotate_out (or disable) landing after the
 *    rdpmc of one pass and before its lock re-check makes the next pass
 *    see index 0 and count = offset (the whole count) + the old pass's pmc;
 *  - likewise the time variables survive: a retry whose last pass has
 *    enabled == running reuses the previous pass's TSC and time_offset
 *    (wrong when that pass has index 0);
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

uint64_t selfmon_v_uapi_pre2022(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint32_t seq, time_mult = 0, time_shift = 0, index, width = 64;
	uint64_t count, enabled, running;
	uint64_t cyc = 0, time_offset = 0;
	uint64_t quot, rem, delta;
	int64_t pmc = 0;

	/* the `lock` comment: the seqlock loop */
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

		index = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && index) {
			width = pc->pmc_width;
			pmc = rdpmc(index - 1);
		}

		barrier();
	} while (pc->lock != seq);

	/* the pmc_width comment: sign extend and add */
	pmc <<= 64 - width;
	pmc >>= 64 - width; /* signed shift right */
	count += pmc;

	/* the time_shift/time_mult/time_offset comment */
	quot = cyc >> time_shift;
	rem = cyc & (((uint64_t)1 << time_shift) - 1);
	delta = time_offset + quot * time_mult +
	        ((rem * time_mult) >> time_shift);

	enabled += delta;
	if (index)
		running += delta;

	quot = count / running;
	rem = count % running;
	count = quot * enabled + (rem * enabled) / running;

	return count;
}
