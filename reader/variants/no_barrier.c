/*
 * no_barrier — single-fault mutant: the seqlock has no compiler barriers
 * and every page field is a plain (non-volatile) load, so the compiler is
 * free to merge, move and hoist the loads.
 *
 * What goes wrong: with -O2 in the freestanding (Unicorn) build, rdpmc and
 * rdtsc are asm statements without a memory clobber, so gcc folds the
 * second lock load into the first (the re-check is compiled away: a page
 * update landing during the read is not noticed, as in no_recheck), and
 * the odd-lock spin becomes a loop on a register (a lock that is odd at
 * entry, i.e. a remote writer in the middle of an update, never lets the
 * reader go: livelock).  In the native (routed) build rdpmc/rdtsc are
 * calls to external functions, which the compiler must assume may write
 * the page, so there the generated code happens to re-load and the mutant
 * may behave like the correct reader: its verdict is engine-dependent by
 * nature.
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

int selfmon_v_no_barrier(const void *page, int fd,
                         struct selfmon_value *out)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t caps, enabled, running, count, delta, cyc;
	uint64_t time_offset, time_cycles, time_mask, buf[3];
	uint32_t seq, idx, time_mult;
	uint16_t width, time_shift;
	int user_rdpmc;

	for (;;) {
		seq = pc->lock;
		if (seq & 1)
			continue; /* an update is in progress */

		enabled = pc->time_enabled;
		running = pc->time_running;
		caps = pc->capabilities;

		delta = 0;
		if (caps & CAP(SELFMON_CAP_USER_TIME)) {
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
			time_offset = pc->time_offset;
			cyc = rdtsc();
			if (caps & CAP(SELFMON_CAP_USER_TIME_SHORT)) {
				time_cycles = pc->time_cycles;
				time_mask = pc->time_mask;
				cyc = time_cycles +
				      ((cyc - time_cycles) & time_mask);
			}
			delta = time_offset +
			        mul_u64_u32_shr(cyc, time_mult, time_shift);
		}

		user_rdpmc = (caps & CAP(SELFMON_CAP_USER_RDPMC)) != 0;
		idx = pc->index;
		count = (uint64_t)pc->offset;
		width = pc->pmc_width;
		if (user_rdpmc && idx)
			count = reset_fix(count + sign_extend(rdpmc(idx - 1), width), width);

		if (pc->lock == seq) /* FAULT: plain load, no barrier */
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
