/*
 * config.c — default configurations per arch.
 *
 * Owns: sm_config_default(), the per-arch defaults of a configuration,
 * and sm_config_check(), the test a configuration passes before a model
 * is built from it.  The names of the arches and actions are enums.c's.
 * It must not touch
 * model state.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "drivers.h"

/* Per-arch PMU and clock defaults (docs/kernel-variant.md §2). */
static const struct arch_defaults {
	unsigned gp, fixed, width, timer_width;
	uint64_t max_period, hz;
	int user_access;
} defaults[SM_NARCH] = {
	/* x86-64: 4 GP + 3 fixed, 48 bits, overflow at 47 bits, rdpmc=1,
	 * a 2.9 GHz TSC. */
	[SM_X86_64] = { 4, 3, 48, 64, (1ull << 47) - 1, 2900000000ull, 1 },
	/* arm64: 6 event counters + PMCCNTR, 32-bit events, a 1 GHz
	 * architected timer, perf_user_access=1.  The timer's width follows
	 * from its rate (sm_config_default() below), so none is given. */
	[SM_ARM64] = { 6, 0, 32, 0, 0xffffffffull, 1000000000ull, 1 },
	/* riscv64: hpmcounter3..6, 48-bit hpm counters (cycle and instret
	 * are 64-bit), a 1 GHz time CSR of 64 bits (riscv_timer_init_common()
	 * registers sched_clock with 64 bits), perf_user_access=1. */
	[SM_RISCV64] = { 4, 0, 48, 64, (1ull << 47) - 1, 1000000000ull, 1 },
};

void sm_config_default(struct sm_config *cfg, enum sm_arch arch)
{
	const struct arch_defaults *d = &defaults[arch];

	memset(cfg, 0, sizeof(*cfg));
	cfg->arch = arch;
	cfg->gp = d->gp;
	cfg->fixed = d->fixed;
	cfg->width = d->width;
	cfg->max_period = d->max_period;
	cfg->user_access = d->user_access;
	cfg->stable = true;
	/* arm64: arch_counter_register() -> arch_counter_get_width() from
	 * the timer's rate (clock.c) */
	cfg->timer_width = arch == SM_ARM64 ? sm_arm64_timer_width(d->hz)
	                                    : d->timer_width;
	cfg->ncpus = 2;
	/* max_samples_per_tick: none by default.  The kernel's is
	 * DIV_ROUND_UP(DEFAULT_MAX_SAMPLE_RATE, HZ) = 400, but the model has
	 * no natural scheduler tick (only the `tick` action), so an event it
	 * throttled would stay throttled: a scenario asks for it
	 * (`pmu max_samples=`). */
	for (unsigned i = 0; i < SM_MAX_CPUS; i++)
		cfg->cpu[i].hz = d->hz;
	cfg->writer = SM_WRITER_LOCAL;
}

/* ---- the configuration check --------------------------------------- */

/* The error message: "config: what is wrong" (as kernel.c's actions say
 * theirs). */
static int fail(char *err, size_t n, const char *msg, const char *what)
{
	if (err && n)
		snprintf(err, n, "%s: %s", what, msg);
	return -1;
}

static bool same_clock(const struct sm_clock_cfg *a,
                       const struct sm_clock_cfg *b)
{
	/* offset_ns is x86's cyc2ns offset, unused here */
	return a->hz == b->hz && a->mult == b->mult && a->shift == b->shift &&
	       a->epoch_cyc == b->epoch_cyc && a->epoch_ns == b->epoch_ns;
}

/* Can some counter of the PMU count event e? */
static bool some_counter(const struct sm_config *cfg,
                         const struct sm_event_cfg *e)
{
	for (int c = 0; c < SM_MAX_COUNTERS; c++)
		if (sm_counter_exists(cfg, c) &&
		    sm_pmu_of(cfg->arch)->counter_ok(cfg, e, c))
			return true;
	return false;
}

int sm_config_check(const struct sm_config *cfg, char *err, size_t n)
{
	if (cfg->arch >= SM_NARCH)
		return fail(err, n, "unknown arch", "config");
	if (cfg->kernel >> SM_NVARIANTS ||
	    !(sm_kernel_arches(cfg->kernel) & (1u << cfg->arch)))
		return fail(err, n, "a kernel variant that does not apply to "
		            "this arch", "config");
	/* is_pmuv3p5() holds for every later PMUv3 (arm_pmuv3.h) */
	if (cfg->arch == SM_ARM64 && cfg->pmuv3p9 && !cfg->long_counters)
		return fail(err, n, "PMUv3.9 has PMUv3p5's 64-bit counters: "
		            "pmu pmuv3p9=yes needs long=yes", "config");
	if (cfg->ncpus < 1 || cfg->ncpus > SM_MAX_CPUS || cfg->task_cpu >= cfg->ncpus)
		return fail(err, n, "bad cpu count or task cpu", "config");
	if (cfg->nevents < 1 || cfg->nevents > SM_MAX_EVENTS)
		return fail(err, n, "needs 1 to 8 events", "config");
	if (cfg->arch == SM_X86_64 && cfg->width != 0 &&
	    (cfg->width < 32 || cfg->width > 64))
		return fail(err, n, "x86 counter width must be 32..64", "config");
	/* kernel/time/sched_clock.c: one clock_data for all CPUs on arm64
	 * and riscv64 (x86 keeps a cyc2ns per CPU) */
	for (unsigned k = 1; cfg->arch != SM_X86_64 && k < cfg->ncpus; k++)
		if (!same_clock(&cfg->cpu[k], &cfg->cpu[0]))
			return fail(err, n, "sched_clock is one clock for all CPUs "
			            "on arm64 and riscv64: CPU clocks must not differ",
			            "config");
	/* arch/x86/kernel/tsc.c: while the TSC is stable every CPU has the
	 * boot CPU's cyc2ns (cyc2ns_init_secondary_cpus()); a per-CPU
	 * rescale (time_cpufreq_notifier()) comes only after
	 * mark_tsc_unstable().  The scenario parser says where. */
	for (unsigned k = 1; cfg->arch == SM_X86_64 && cfg->stable &&
	                     k < cfg->ncpus; k++)
		if (!same_clock(&cfg->cpu[k], &cfg->cpu[0]) ||
		    cfg->cpu[k].offset_ns != cfg->cpu[0].offset_ns)
			return fail(err, n, "x86 keeps one cyc2ns for all CPUs "
			            "while the TSC is stable: CPU clocks must not "
			            "differ", "config");
	/* arm64: arch_counter_get_width() fixes the timer's width from its
	 * rate (clock.c); with mult/shift and no rate, any width it gives
	 * for a rate of 32 bits (arch_timer_rate): 56..63 */
	if (cfg->arch == SM_ARM64 &&
	    (cfg->cpu[0].hz ? cfg->timer_width !=
	                      sm_arm64_timer_width(cfg->cpu[0].hz)
	                    : cfg->timer_width < 56 || cfg->timer_width > 63))
		return fail(err, n, "arm64 timer width is not the one "
		            "arch_counter_get_width() gives its rate", "config");
	if (cfg->npmu_types > SM_MAX_PMU_TYPES ||
	    (cfg->npmu_types && cfg->arch == SM_RISCV64))
		return fail(err, n, "hybrid PMUs: 1 to 3 CPU types, on x86_64 "
		            "and arm64", "config");
	for (unsigned k = 0; cfg->npmu_types && k < cfg->ncpus; k++)
		if (cfg->cpu_type[k] < 1 || cfg->cpu_type[k] > cfg->npmu_types)
			return fail(err, n, "hybrid PMUs: every CPU needs a type",
			            "config");
	for (unsigned i = 0; i < cfg->nevents; i++) {
		const struct sm_event_cfg *e = &cfg->event[i];
		/* perf_event_open() with a group_fd: the leader is open already
		 * and a leader itself, and a sibling is never pinned (EINVAL);
		 * software events in groups (which may join a hardware group,
		 * move_group) are not modelled */
		if (e->group && (e->group > i || cfg->event[e->group - 1].group ||
		                 e->pinned || e->type == SM_EV_SOFTWARE ||
		                 cfg->event[e->group - 1].type == SM_EV_SOFTWARE))
			return fail(err, n, "a group's leader must be an earlier "
			            "hardware event that is no sibling, and a sibling "
			            "an unpinned hardware event", e->name);
		if ((e->read_format & SM_RF_GIVEN) &&
		    (e->read_format & ~(SM_RF_GIVEN | SM_RF_ALL)))
			return fail(err, n, "unknown read_format bits", e->name);
		if (cfg->npmu_types && e->type != SM_EV_SOFTWARE &&
		    (e->pmu < 1 || e->pmu > cfg->npmu_types))
			return fail(err, n, "hybrid PMUs: a hardware event needs "
			            "the PMU of a CPU type", e->name);
		/* width 0: no PMU (x86_pmu.cntval_bits stays 0): software only */
		if (cfg->arch == SM_X86_64 && cfg->width == 0 &&
		    e->type != SM_EV_SOFTWARE)
			return fail(err, n, "no PMU (width 0) for a hardware event",
			            e->name);
		if (e->rate < 1)
			return fail(err, n, "rate must be at least 1", e->name);
		/* perf_event_set_output(): the target's buffer must be mapped
		 * (rb->mmap_count: the buffer at the end of the chain), the
		 * event's own must not be (mmap_count: -EINVAL), the clocks
		 * must agree; the model also keeps the target an earlier
		 * event */
		const struct sm_event_cfg *t = e->output ? &cfg->event[e->output - 1]
		                                         : NULL;
		/* attr.sample_period and attr.sample_freq are one field;
		 * perf_event_open() refuses a frequency over
		 * perf_event_max_sample_rate (100000 by default) */
		if (e->freq && (e->period || e->freq > 100000 ||
		                e->type == SM_EV_SOFTWARE))
			return fail(err, n, "freq= is 1..100000, not with period= "
			            "and not on a software event", e->name);
		if (t && (e->output > i || e->mmap || t->clockid != e->clockid ||
		          !cfg->event[sm_rb_event(cfg->event, e->output - 1)].mmap))
			return fail(err, n, "output= needs an earlier event of the "
			            "same clock whose buffer is mapped, and no mmap "
			            "of its own", e->name);
		/* a software clock counts ns (task_clock_event_update(),
		 * cpu_clock_event_update()): no rate */
		if (sm_event_is_clock(e) && e->rate != 1)
			return fail(err, n, "a software clock counts ns: no rate",
			            e->name);
		if (e->counter != SM_AUTO &&
		    !(sm_counter_exists(cfg, e->counter) &&
		      sm_pmu_of(cfg->arch)->counter_ok(cfg, e, e->counter)))
			return fail(err, n, "counter cannot count this event", e->name);
		/* x86_pmu_event_init() -> validate_event(): an event whose
		 * constraint allows no counter of this PMU (ref-cycles without
		 * fixed counter 2) is EINVAL at perf_event_open() */
		if (cfg->arch == SM_X86_64 && e->type != SM_EV_SOFTWARE &&
		    e->counter == SM_AUTO && !some_counter(cfg, e))
			return fail(err, n, "no counter of this PMU can count this "
			            "event (perf_event_open() fails: EINVAL)", e->name);
		if (cfg->arch == SM_ARM64 && e->long64 && !cfg->long_counters &&
		    (e->type != SM_EV_CYCLES ||
		     sm_arm64_cycles_avoid_pmccntr(cfg)))
			return fail(err, n, "a 64-bit event needs long counters "
			            "(pmu long=yes) or the cycle counter", e->name);
	}
	return 0;
}
