/*
 * base_reader — the corpus's correct values-ABI reader: the code every
 * single-fault mutant in this directory copies and changes in one place
 * (diff a mutant against this file to see its fault).
 *
 * Owns: the base algorithm, one function.  It is no corpus reader: no
 * record in list.h, not built into selfmon (CMakeLists.txt leaves it out
 * of the corpus); test_user compiles it as a user's reader and checks
 * that it passes every bundled scenario on every arch.  The mutants copy
 * it rather than call it, so each one's machine code and line numbers,
 * which selfmon's output shows, are its own: a change here changes no
 * built-in reader.  Must not touch: base.h, whose helpers the mutants
 * share (a change there changes them all).
 *
 * Algorithm (the libperf / 2022 uapi way, written for this corpus):
 * seqlock loop that retries while the lock is odd or has moved; inside it
 * every page field is loaded once with READ_ONCE (times, capabilities,
 * time_mult/shift/offset and, with cap_user_time_short, time_cycles/mask,
 * index, offset, pmc_width) and rdtsc/rdpmc are executed; the count is
 * offset + the counter sign-extended from pmc_width, corrected for the
 * IOC_RESET quirk as the reference reader does (a count that comes out
 * negative was computed from a zero-extended prev_count: it is
 * 2^pmc_width low); the time delta is offset + mul_u64_u32_shr(cyc, mult,
 * shift) in 128 bits; enabled += delta always, running += delta only
 * while index != 0; with index == 0 or !cap_user_rdpmc it falls back to
 * read(2).  Unlike libperf it extrapolates enabled/running with the TSC
 * even when they were equal at the last page update.
 */
#include "base.h"

#define CAP(bit) ((uint64_t)1 << (bit))

int selfmon_base_read(const void *page, int fd,
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
