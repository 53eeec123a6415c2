/*
 * config.c — default configurations per arch.
 *
 * Owns: sm_config_default(), the per-arch defaults of a configuration.
 * The names of the arches and actions are enums.c's.  It must not touch
 * model state.
 */
#include <string.h>

#include "model.h"

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
