/*
 * arm64_pmselr_no_isb — single-fault mutant (arm64 only): reads the
 * counter with the select-then-read pair, as DPDK's and VPP's arm64
 * readers do (msr PMSELR_EL0 = index - 1, then mrs PMXEVCNTR_EL0), inside
 * the seqlock pass, but with no isb between the two.
 *
 * What goes wrong: a write to PMSELR_EL0 is only guaranteed to reach a
 * later read of PMXEVCNTR_EL0 after a context synchronization event (an
 * isb, or an exception); without one the read may still use the previous
 * selection and return another counter's value.  The seqlock cannot see
 * it: the page did not change.  selfmon explores both outcomes of such a
 * read (the explorer's stale_select choice, sim/engine/uc_arm64.c); the
 * previous selection at entry is what PMSELR_EL0 held, 0, so every
 * scenario whose event is not on counter 0 shows it with no kernel action
 * at all.  The kernel's own select-then-read has the isb (6.12
 * drivers/perf/arm_v7_pmu.c, armv7_pmnc_select_counter()), as does
 * prims.h's pmselr(), which arm64_pmselr_unlocked uses.
 *
 * Base: the corpus's correct values reader (base_reader.c), which has the
 * reference reader's IOC_RESET correction; this is its only fault.
 */
#include "base.h"

#if defined(__aarch64__)

#define CAP(bit) ((uint64_t)1 << (bit))

/* FAULT: the select, with no isb after it (prims.h's pmselr() has one). */
static inline void select_no_isb(uint32_t counter)
{
	__asm__ __volatile__("msr pmselr_el0, %0" :: "r"((uint64_t)counter)
	                     : "memory");
}

int selfmon_v_arm64_pmselr_no_isb(const void *page, int fd,
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
		if (user_rdpmc && idx) {
			select_no_isb(idx - 1);
			count = reset_fix(count + sign_extend(pmxevcntr(), width),
			                  width);
		}

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
