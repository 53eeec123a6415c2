/*
 * no_sext — single-fault mutant: the rdpmc value is added to offset as
 * the zero-extended value the instruction returns, without sign extension
 * from pmc_width (pmc_width is not even loaded).
 *
 * What goes wrong (x86, width 48): every reload programs the counter with
 * -left, i.e. (2^48 - left), while the kernel's prev_count is the full
 * 64-bit -left, so offset + rdpmc is the true count + 2^48 after every
 * sched-in, rotate_in, enable, migrate and overflow — in practice on every
 * read served from the page.  Right after IOC_RESET (offset computed from
 * the zero-extended prev_count) and until the next reload it is correct.
 * The read(2) fallback (index == 0) is correct.
 *
 * Base: the corpus's correct values-ABI reader, base_reader.c: seqlock
 * retried while odd or moved, READ_ONCE loads, sign extension from
 * pmc_width with the IOC_RESET correction, 128-bit time delta, read(2)
 * fallback when index == 0 or !cap_user_rdpmc.  This file is identical
 * to it except for the one fault described above, which drops the
 * correction with the sign extension: without it the IOC_RESET quirk
 * does not hurt (the zero-extended prev_count matches); every reload does.
 */
#include "base.h"

#define CAP(bit) ((uint64_t)1 << (bit))

int selfmon_v_no_sext(const void *page, int fd,
                      struct selfmon_value *out)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t caps, enabled, running, count, delta, cyc;
	uint64_t time_offset, time_cycles, time_mask, buf[3];
	uint32_t seq, idx, time_mult;
	uint16_t time_shift;
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
		if (user_rdpmc && idx)
			count += rdpmc(idx - 1); /* FAULT: no sign extension */

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
