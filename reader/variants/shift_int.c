/*
 * shift_int — single-fault mutant: the cycles-to-ns conversion is the
 * quotient/remainder split of the pre-2022 documentation, but the
 * remainder mask is computed as (1 << time_shift) - 1 in int, as the 2011
 * readers (seeds 001/002) wrote it, instead of ((u64)1 << time_shift) - 1.
 *
 * What goes wrong: nothing while time_shift <= 31 (gcc computes the int
 * mask 0x7fffffff for 31, though 1 << 31 is formally undefined), and the
 * kernel clamps a shift of 32 to 31 (halving mult) precisely because of
 * readers like this one.  With time_shift >= 32 on the page (a scenario
 * that sets it without the clamp) x86 shifts by time_shift mod 32, the
 * mask becomes 0 (for 32) or garbage, the remainder term is lost and
 * enabled/running come out short by up to time_mult ns.  Expected to be
 * an equivalent mutant under the kernel's clamp.
 *
 * Base: the corpus's correct values-ABI reader, base_reader.c: seqlock
 * retried while odd or moved, READ_ONCE loads, sign extension from
 * pmc_width, the reference reader's IOC_RESET correction (a negative
 * count is 2^pmc_width low), 128-bit time delta, read(2) fallback when
 * index == 0 or !cap_user_rdpmc.  This file is identical to it except
 * for the one fault described above (diff the two to see it), so that
 * fault is its only one.
 */
#include "base.h"

#define CAP(bit) ((uint64_t)1 << (bit))

/* (cyc * mult) >> shift split into quotient and remainder of 2^shift, as
 * the 2011 readers did.  FAULT: the mask is built from the int 1. */
static inline uint64_t int_mask_mul_shr(uint64_t cyc, uint32_t mult,
                                       unsigned shift)
{
	uint64_t quot, rem;

	quot = cyc >> shift;
	rem = cyc & ((1 << shift) - 1);
	return quot * mult + ((rem * mult) >> shift);
}

int selfmon_v_shift_int(const void *page, int fd,
                        struct selfmon_value *out)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t caps, enabled, running, count, delta, cyc;
	uint64_t time_offset, time_cycles, time_mask, buf[3];
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
			        int_mask_mul_shr(cyc, time_mult, time_shift);
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

	if (!user_rdpmc || !idx) {
		/* Not on a counter we may read: ask the kernel. */
		if (sys_read(fd, buf, sizeof(buf)) != (long)sizeof(buf))
			return -1;
		out->count = buf[0];
		out->enabled = buf[1];
		out->running = buf[2];
		return 1;
	}

	enabled += delta;
	if (idx)
		running += delta;
	out->count = count;
	out->enabled = enabled;
	out->running = running;
	return 0;
}
