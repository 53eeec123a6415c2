/*
 * no_running_guard — single-fault mutant, scaled ABI: the corpus's correct
 * reader (see base_reader.c: seqlock retried while odd or moved,
 * READ_ONCE loads, sign extension from pmc_width, 128-bit time delta,
 * enabled += delta, running += delta only while index != 0) followed by
 * the documented scaling count * enabled / running as quot * enabled +
 * rem * enabled / running — without checking running == 0.
 *
 * Adaptation forced by the ABI: the scaled ABI has no fd, so instead of
 * the read(2) fallback this reader uses offset as the count when index ==
 * 0 or !cap_user_rdpmc (offset is the whole count while index == 0), as
 * the uapi documentation does.  Shared, not part of the fault: the
 * IOC_RESET quirk is corrected as in the reference reader; after `disable` (index 0) it extrapolates enabled although the event is
 * OFF, so the scaled count grows with time (a page-only reader cannot tell
 * OFF from rotated out); rem * enabled overflows once running * enabled
 * >= 2^64.
 *
 * What goes wrong (the fault): running == 0 after the extrapolation
 * divides by zero (#DE at the div instruction on x86; arm64's udiv gives
 * 0 and riscv64's divu all ones, a wrong value): an event that has never
 * run — index 0 and time_running 0, e.g. a flexible event that failed to
 * schedule or was rotated out before its first tick — or a page with
 * time_running == 0 read with no TSC time elapsed since the update.
 */
#include "base.h"

#define CAP(bit) ((uint64_t)1 << (bit))

uint64_t selfmon_v_no_running_guard(const void *page)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t caps, enabled, running, count, delta, cyc;
	uint64_t time_offset, time_cycles, time_mask, quot, rem;
	uint32_t seq, idx, time_mult;
	uint16_t width, time_shift;
	int user_rdpmc;

	for (;;) {
		seq = READ_ONCE(pc->lock);
		barrier();
		if (seq & 1)
			continue; /* an update is in progress */

		enabled = READ_ONCE(pc->time_enabled);
		running = READ_ONCE(pc->time_running);
		caps = READ_ONCE(pc->capabilities);

		delta = 0;
		if (caps & CAP(SELFMON_CAP_USER_TIME)) {
			time_mult = READ_ONCE(pc->time_mult);
			time_shift = READ_ONCE(pc->time_shift);
			time_offset = READ_ONCE(pc->time_offset);
			cyc = rdtsc();
			if (caps & CAP(SELFMON_CAP_USER_TIME_SHORT)) {
				time_cycles = READ_ONCE(pc->time_cycles);
				time_mask = READ_ONCE(pc->time_mask);
				cyc = time_cycles +
				      ((cyc - time_cycles) & time_mask);
			}
			delta = time_offset +
			        mul_u64_u32_shr(cyc, time_mult, time_shift);
		}

		user_rdpmc = (caps & CAP(SELFMON_CAP_USER_RDPMC)) != 0;
		idx = READ_ONCE(pc->index);
		count = (uint64_t)READ_ONCE(pc->offset);
		width = READ_ONCE(pc->pmc_width);
		if (user_rdpmc && idx)
			count = reset_fix(count + sign_extend(rdpmc(idx - 1), width), width);

		barrier();
		if (READ_ONCE(pc->lock) == seq)
			break;
	}

	/* Scaled ABI, no fd: when the counter cannot be read, count is
	 * offset, which holds the whole count while index == 0. */
	enabled += delta;
	if (idx)
		running += delta;

	/* FAULT: no running == 0 guard */
	quot = count / running;
	rem = count % running;
	return quot * enabled + (rem * enabled) / running;
}
