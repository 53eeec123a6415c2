/*
 * caps_outside_loop — single-fault mutant: the capability bits
 * (cap_user_rdpmc, cap_user_time, cap_user_time_short) and pmc_width are
 * read once before the seqlock loop instead of inside it.
 *
 * What goes wrong: nothing while the capabilities are stable.  The kernel
 * rewrites them on every update, and x86's arch_perf_update_userpage()
 * first clears cap_user_time and sets it again only after the time fields:
 * with a remote writer, a capability load that lands inside an update sees
 * cap_user_time == 0, the reader then skips the TSC extrapolation and
 * returns the times of the last page update (stale enabled/running), and
 * no retry repairs it.  Likewise a capability that really changes during
 * the call (e.g. the clock becoming unstable, rdpmc permission changing)
 * is not seen.  On a local writer with fixed capabilities: never wrong.
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

int selfmon_v_caps_outside_loop(const void *page, int fd,
                                struct selfmon_value *out)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t caps, enabled, running, count, delta, cyc;
	uint64_t time_offset, time_cycles, time_mask, buf[3];
	uint32_t seq, idx, time_mult;
	uint16_t width, time_shift;
	int user_rdpmc;

	/* FAULT: capabilities and pmc_width are read once, before the
	 * seqlock, and are not covered by it. */
	caps = READ_ONCE(pc->capabilities);
	width = READ_ONCE(pc->pmc_width);

	for (;;) {
		seq = READ_ONCE(pc->lock);
		barrier();
		if (seq & 1)
			continue; /* an update is in progress */

		enabled = READ_ONCE(pc->time_enabled);
		running = READ_ONCE(pc->time_running);

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
