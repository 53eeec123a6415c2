/*
 * arm64_swapped_table — single-fault mutant (arm64 only): reads the counter
 * through a table of per-register functions (PMEVCNTR<n>_EL0 can only be
 * named in the instruction) in which the entries for counters 12 and 13
 * are swapped, as they are in the published tables: libperf's
 * read_perf_counter() in tools/lib/perf/mmap.c (torvalds/linux, since
 * 407eb43ae87c "libperf: Add arm64 support to perf_mmap__read_self()",
 * Linux 5.17, and still at 8dc364fa484d, Linux 6.18) and PAPI's rdpmc()
 * for __aarch64__ in src/components/perf_event/perf_helpers.h
 * (icl-utk-edu/papi, since 9a1f2d897, PAPI 7.0.1, which ported libperf's
 * table).  In both the 32-entry read_f[] lists read_pmevcntr_13 at index
 * 12 and read_pmevcntr_12 at index 13; the other 30 entries are right.
 *
 * What goes wrong: an event on PMEVCNTR12 or PMEVCNTR13 is read from the
 * other register, so the count is the partner counter's value plus this
 * event's offset — wrong whenever the two registers differ (another event
 * counting there at another rate or from another start; with no event on
 * the partner, whatever it last held).  Only a PMU with more than 12
 * event counters (PMCR_EL0.N > 12) can put an event there, and mainline's
 * armv8pmu_get_single_idx() (drivers/perf/arm_pmuv3.c) hands out the
 * lowest free counter first, so with few events the slip never shows (a
 * proposed KVM PMU-partitioning patch that allocates host counters from
 * the top down would change that).  Events on the cycle counter or on
 * counters 0..11 and 14..30 are right: the mutant passes every bundled
 * scenario but traces/arm64_swapped.scn (counters 12 and 13).
 *
 * Base: the corpus's correct values reader (base_reader.c), which has the
 * reference reader's IOC_RESET correction; this is its only fault.
 */
#include "base.h"

#define CAP(bit) ((uint64_t)1 << (bit))

#if defined(__aarch64__)
/* One function per counter register, indexed by counter number, as arm64
 * readers build them (mrs takes the register name, not a number). */
#define READER(n)                                                              \
	static uint64_t read_pmev##n(void)                                     \
	{                                                                      \
		uint64_t v;                                                    \
		__asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v));   \
		return v;                                                      \
	}
READER(0) READER(1) READER(2) READER(3) READER(4) READER(5) READER(6)
READER(7) READER(8) READER(9) READER(10) READER(11) READER(12) READER(13)
READER(14) READER(15) READER(16) READER(17) READER(18) READER(19)
READER(20) READER(21) READER(22) READER(23) READER(24) READER(25)
READER(26) READER(27) READER(28) READER(29) READER(30)

static uint64_t read_pmccntr(void)
{
	uint64_t v;
	__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
	return v;
}

/* FAULT: the entries for counters 12 and 13 are swapped, as published. */
static uint64_t (*const read_counter[32])(void) = {
	read_pmev0, read_pmev1, read_pmev2, read_pmev3, read_pmev4,
	read_pmev5, read_pmev6, read_pmev7, read_pmev8, read_pmev9,
	read_pmev10, read_pmev11, read_pmev13, read_pmev12, read_pmev14,
	read_pmev15, read_pmev16, read_pmev17, read_pmev18, read_pmev19,
	read_pmev20, read_pmev21, read_pmev22, read_pmev23, read_pmev24,
	read_pmev25, read_pmev26, read_pmev27, read_pmev28, read_pmev29,
	read_pmev30, read_pmccntr,
};

int selfmon_v_arm64_swapped_table(const void *page, int fd,
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
			count = reset_fix(count + sign_extend(read_counter[idx - 1](), width),
			                  width);

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
