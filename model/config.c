/*
 * config.c — default configurations per arch and the name tables.
 *
 * Owns: sm_config_default(), the arch name table and the action table (name,
 * description, plot colour) that the parser, the commands, the plots and the
 * JSON output share.  It must not touch
 * model state.
 */
#include <string.h>

#include "model.h"

static const char *const arch_names[SM_NARCH] = {
	[SM_X86_64] = "x86_64",
	[SM_ARM64] = "arm64",
	[SM_RISCV64] = "riscv64",
};

/* One row an action: its name (--actions, --without, a schedule's
 * action@step), what the kernel does (`selfmon list`) and its colour in
 * a plot.  Every column of every row is set: test_plot checks it. */
static const struct sm_action_desc action_table[SM_NACTIONS] = {
	[SM_ACT_MMAP] = { "mmap", "#555",
		"perf_mmap(): the page is set up and first written" },
	[SM_ACT_ENABLE] = { "enable", "#2a7",
		"PERF_EVENT_IOC_ENABLE: the event starts counting" },
	[SM_ACT_DISABLE] = { "disable", "#a52",
		"PERF_EVENT_IOC_DISABLE: the event stops counting (index 0)" },
	[SM_ACT_ROTATE_OUT] = { "rotate_out", "#c60",
		"event_sched_out() of one event: off its " "counter (index 0)" },
	[SM_ACT_ROTATE_IN] = { "rotate_in", "#06c",
		"event_sched_in() of one event: onto a counter " "the PMU chooses" },
	[SM_ACT_ROTATE] = { "rotate", "#80c",
		"perf_rotate_context(): the multiplexing tick, " "events rotated on the counters" },
	[SM_ACT_OVERFLOW] = { "overflow", "#d00",
		"the counter runs to its wrap and the PMI handler " "runs" },
	[SM_ACT_PREEMPT] = { "preempt", "#888",
		"a context switch out and back in on the same CPU" },
	[SM_ACT_MIGRATE] = { "migrate", "#0aa",
		"a context switch out and back in on another CPU" },
	[SM_ACT_RESET] = { "reset", "#e0a",
		"PERF_EVENT_IOC_RESET: the count goes back to 0" },
	[SM_ACT_STALL] = { "stall", "#999",
		"time passes, the task keeps running, the page is " "not written" },
	[SM_ACT_PERIOD] = { "period", "#770",
		"PERF_EVENT_IOC_PERIOD: a new sample period" },
	[SM_ACT_CLOCK_EPOCH] = { "clock_epoch", "#470",
		"arm64, riscv64: update_sched_clock() starts a " "new clock epoch" },
	[SM_ACT_READ] = { "read", "#333",
		"read(2) of the event: its count updated, not its " "page" },
	[SM_ACT_LOCK_EARLY] = { "lock_early", "#47c",
		"arm64, riscv64 remote writer: an update's " "closing ++lock seen before its fields" },
	[SM_ACT_REFRESH] = { "refresh", "#275",
		"PERF_EVENT_IOC_REFRESH: a sampling event may " "overflow K more times, and is enabled" },
	[SM_ACT_TICK] = { "tick", "#5a5",
		"perf_event_task_tick(): frequency events' periods " "adjusted, throttled events restarted" },
	[SM_ACT_MUNMAP] = { "munmap", "#b40",
		"munmap() of the page: perf_mmap_close(), the page " "gone from the reader" },
};

const char *sm_arch_name(enum sm_arch arch)
{
	return (unsigned)arch < SM_NARCH ? arch_names[arch] : "?";
}

int sm_arch_from_name(const char *name)
{
	for (int i = 0; i < SM_NARCH; i++)
		if (strcmp(name, arch_names[i]) == 0)
			return i;
	return -1;
}

const struct sm_action_desc *sm_action_desc(enum sm_action_kind kind)
{
	static const struct sm_action_desc unknown = { "?", "", "" };
	return (unsigned)kind < SM_NACTIONS ? &action_table[kind] : &unknown;
}

const char *sm_action_name(enum sm_action_kind kind)
{
	return sm_action_desc(kind)->name;
}

int sm_action_from_name(const char *name)
{
	for (int i = 0; i < SM_NACTIONS; i++)
		if (strcmp(name, action_table[i].name) == 0)
			return i;
	return -1;
}

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
