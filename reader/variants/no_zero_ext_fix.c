/*
 * no_zero_ext_fix — single-fault mutant of the corpus's correct values
 * reader (base_reader.c): it sign-extends the counter from pmc_width but
 * leaves out the base's IOC_RESET correction, reset_fix().  (It was the
 * base until the base got a file of its own, hence its list line, "the
 * correct base reader itself".)
 *
 * Base: base_reader.c (seqlock loop retried while the lock is odd or has
 * moved; every page field loaded once with READ_ONCE; rdtsc and rdpmc in
 * the loop; time delta offset + mul_u64_u32_shr(cyc, mult, shift) in 128
 * bits; enabled += delta always, running += delta only while index != 0;
 * read(2) when index == 0 or !cap_user_rdpmc).  This file is identical to
 * it except for the one fault, on the line marked FAULT: the sign-extended
 * count is used as it is, where the base passes it through reset_fix().
 *
 * What goes wrong: after PERF_EVENT_IOC_RESET (x86) the kernel computes
 * offset from a zero-extended prev_count while this reader sign-extends
 * the rdpmc value, so until the next reload (sched-in or overflow) the
 * count is 2^48 too small (it wraps to about 2^64 - 2^48).  The reference
 * reader and the base handle that quirk; this one deliberately does not.
 * It differs from libperf_sext in that it extrapolates enabled/running
 * with the TSC even when they were equal at the last page update.
 */
#include "base.h"

#define CAP(bit) ((uint64_t)1 << (bit))

int selfmon_v_no_zero_ext_fix(const void *page, int fd,
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
			        mul_u64_u32_shr(cyc, time_mult, time_shift);
		}

		user_rdpmc = (caps & CAP(SELFMON_CAP_USER_RDPMC)) != 0;
		idx = READ_ONCE(pc->index);
		count = (uint64_t)READ_ONCE(pc->offset);
		width = READ_ONCE(pc->pmc_width);
		if (user_rdpmc && idx)
			count += sign_extend(rdpmc(idx - 1), width); /* FAULT */

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
