/*
 * inverted_recheck — single-fault mutant: the re-check at the end of the
 * seqlock loop is inverted: it retries while the lock is still equal to
 * the value read at the top, and leaves after the first change.
 *
 * What goes wrong: with no kernel activity during the call the loop never
 * ends (livelock: the lock never moves).  When an update does land inside
 * the read, the reader returns exactly the pass that was torn by it (e.g.
 * the pre-overflow offset with the reloaded counter, or the counter of a
 * rotated-out event).
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

int selfmon_v_inverted_recheck(const void *page, int fd,
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
			count = reset_fix(count + sign_extend(rdpmc(idx - 1), width), width);

		barrier();
		if (READ_ONCE(pc->lock) != seq)
			break; /* FAULT: the test is inverted */
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
