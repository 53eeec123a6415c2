/*
 * arm64_pmselr_unlocked — single-fault mutant (arm64 only): reads the
 * counter with the select-then-read pair (MSR PMSELR_EL0 = index - 1, then
 * MRS PMXEVCNTR_EL0) but selects once, before the seqlock loop, so the
 * selection is not covered by the lock.
 *
 * What goes wrong: if the event moves to another counter (rotated out and
 * back in elsewhere, or migrated) after the select, a retry re-reads
 * index and offset but still reads the old counter through PMXEVCNTR.
 * Likewise if index is 0 at the select (the event is rotated out, so
 * nothing is selected) and the event is back on a counter when the loop
 * runs: PMXEVCNTR reads whatever counter PMSELR_EL0 last named
 * (PMEVCNTR0 here: the engine starts PMSELR_EL0 at 0) — the shortest
 * counterexample on every arm64 scenario.
 *
 * Base: the corpus's correct values reader (base_reader.c), which has the
 * reference reader's IOC_RESET correction; this is its only fault.
 */
#include "base.h"

#if defined(__aarch64__)

#define CAP(bit) ((uint64_t)1 << (bit))

int selfmon_v_arm64_pmselr_unlocked(const void *page, int fd,
                              struct selfmon_value *out)
{
	const struct perf_event_mmap_page *pc = page;
	uint64_t caps, enabled, running, count, delta, cyc;
	uint64_t time_offset, time_cycles, time_mask, buf[3];
	uint32_t seq, idx, time_mult;
	uint16_t width, time_shift;
	int user_rdpmc;

	/* FAULT: the counter is selected once, outside the seqlock. */
	idx = READ_ONCE(pc->index);
	if (idx)
		pmselr(idx - 1);
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
			count = reset_fix(count + sign_extend(pmxevcntr(), width), width);

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
#endif
