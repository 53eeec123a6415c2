/*
 * uapi_2022 — re-implementation of the self-monitoring reader described by
 * the comments of struct perf_event_mmap_page in include/uapi/linux/
 * perf_event.h after the 2022 patch "perf: Align user space counter
 * reading with code" (seed 000, the "after" side, which aligned the
 * documentation with libperf's perf_mmap__read_self).
 *
 * Algorithm as documented since 2022:
 *   loop (no odd check): enabled, running; if cap_usr_time && enabled !=
 *   running: rdtsc, time_mult, time_shift, time_offset and, if
 *   cap_user_time_short, time_cycles and time_mask; index; count = offset;
 *   if cap_user_rdpmc && index: width = pmc_width, pmc = rdpmc(index - 1),
 *   pmc <<= 64 - width, pmc >>= 64 - width, count += pmc; retry while the
 *   lock moved.
 *   time paragraph: cyc = time_cycles + ((cyc - time_cycles) & time_mask);
 *   delta = time_offset + mul_u64_u32_shr(cyc, time_mult, time_shift)
 *   (a 128-bit product shifted); enabled += delta; if (index) running +=
 *   delta; if (running != 0) count = quot * enabled + rem * enabled /
 *   running with quot/rem of count / running.
 * The documentation leaves the time variables unset when they are not
 * loaded; here they start at 0, time_mask at ~0 (the "nop if not short"
 * libperf uses), so the unused path computes delta 0.  As documented they
 * are not reset on a retry.  Scaled ABI: the result is the scaled count.
 *
 * What goes wrong:
 *  - after IOC_RESET (sign extension vs the kernel's zero-extended
 *    prev_count) the count is 2^pmc_width too small (2^48 on x86,
 *    2^32 on arm64) until the next reload;
 *  - running == 0 returns the unscaled count (the documented guard);
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

static inline uint64_t mul_u64_u32_shr(uint64_t a, uint32_t mul,
                                       unsigned shift)
{
	return (uint64_t)(((unsigned __int128)a * mul) >> shift);
}

uint64_t selfmon_v_uapi_2022(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint32_t seq, time_mult = 0, time_shift = 0, index, width;
	uint64_t count, enabled, running;
	uint64_t cyc = 0, time_offset = 0, time_cycles = 0, time_mask = ~0ull;
	uint64_t quot, rem, delta;
	int64_t pmc;

	/* the `lock` comment: the seqlock loop */
	do {
		seq = pc->lock;
		barrier();

		enabled = pc->time_enabled;
		running = pc->time_running;

		if (pc->cap_user_time && enabled != running) {
			cyc = rdtsc();
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
			time_offset = pc->time_offset;
			if (pc->cap_user_time_short) {
				time_cycles = pc->time_cycles;
				time_mask = pc->time_mask;
			}
		}

		index = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && index) {
			width = pc->pmc_width;
			pmc = rdpmc(index - 1);
			pmc <<= 64 - width;
			pmc >>= 64 - width;
			count += pmc;
		}

		barrier();
	} while (pc->lock != seq);

	/* the time_shift/time_mult/time_offset comment */
	cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	delta = time_offset + mul_u64_u32_shr(cyc, time_mult, time_shift);

	enabled += delta;
	if (index)
		running += delta;

	if (running != 0) {
		quot = count / running;
		rem = count % running;
		count = quot * enabled + (rem * enabled) / running;
	}

	return count;
}
