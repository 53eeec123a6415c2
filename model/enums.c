/*
 * enums.c — the descriptor table of each of the model's enums: one row a
 * value, one column a property (name, description, colour, letter).
 *
 * Owns: the arch, action and capability tables (enums.h) that the scenario
 * parser, the commands, the plots, the oracle's sentences and the JSON
 * output read.  A new value is one new row here, nowhere else; test_enums
 * checks that every row has every column.  The verdicts' table is
 * verdict.c's.  It must not touch model state.
 */
#include <string.h>

#include "model.h"

/* One row an arch: its name (--arch, a scenario's `arch`, JSON) and the
 * counter read its readers sign-extend (the oracle's sentences). */
static const struct sm_arch_desc arch_table[SM_NARCH] = {
	[SM_X86_64] = { "x86_64", "rdpmc's value" },
	[SM_ARM64] = { "arm64", "the PMEVCNTR/PMCCNTR value" },
	[SM_RISCV64] = { "riscv64", "the counter CSR's value" },
};

/* One row an action: its name (--actions, --without, a schedule's
 * action@step), what the kernel does (`selfmon list`) and its colour in
 * a plot.  Every column of every row is set: test_enums checks it. */
static const struct sm_action_desc action_table[SM_NACTIONS] = {
	[SM_ACT_MMAP] = { "mmap", "#555",
		"perf_mmap(): the page is set up and first written" },
	[SM_ACT_ENABLE] = { "enable", "#2a7",
		"PERF_EVENT_IOC_ENABLE: the event starts counting" },
	[SM_ACT_DISABLE] = { "disable", "#a52",
		"PERF_EVENT_IOC_DISABLE: the event stops counting (index 0)" },
	[SM_ACT_ROTATE_OUT] = { "rotate_out", "#c60",
		"event_sched_out() of one event: off its counter (index 0)" },
	[SM_ACT_ROTATE_IN] = { "rotate_in", "#06c",
		"event_sched_in() of one event: onto a counter the PMU chooses" },
	[SM_ACT_ROTATE] = { "rotate", "#80c",
		"perf_rotate_context(): the multiplexing tick, events rotated on the counters" },
	[SM_ACT_OVERFLOW] = { "overflow", "#d00",
		"the counter runs to its wrap and the PMI handler runs" },
	[SM_ACT_PREEMPT] = { "preempt", "#888",
		"a context switch out and back in on the same CPU" },
	[SM_ACT_MIGRATE] = { "migrate", "#0aa",
		"a context switch out and back in on another CPU" },
	[SM_ACT_RESET] = { "reset", "#e0a",
		"PERF_EVENT_IOC_RESET: the count goes back to 0" },
	[SM_ACT_STALL] = { "stall", "#999",
		"time passes, the task keeps running, the page is not written" },
	[SM_ACT_PERIOD] = { "period", "#770",
		"PERF_EVENT_IOC_PERIOD: a new sample period" },
	[SM_ACT_CLOCK_EPOCH] = { "clock_epoch", "#470",
		"arm64, riscv64: update_sched_clock() starts a new clock epoch" },
	[SM_ACT_READ] = { "read", "#333",
		"read(2) of the event: its count updated, not its page" },
	[SM_ACT_LOCK_EARLY] = { "lock_early", "#47c",
		"arm64, riscv64 remote writer: an update's closing ++lock seen before its fields" },
	[SM_ACT_REFRESH] = { "refresh", "#275",
		"PERF_EVENT_IOC_REFRESH: a sampling event may overflow K more times, and is enabled" },
	[SM_ACT_TICK] = { "tick", "#5a5",
		"perf_event_task_tick(): frequency events' periods adjusted, throttled events restarted" },
	[SM_ACT_MUNMAP] = { "munmap", "#b40",
		"munmap() of the page: perf_mmap_close(), the page gone from the reader" },
};

/* The page's capability bits that `selfmon model`'s caps column shows,
 * one letter each, in the column's order: their bit in the page's
 * capabilities word is the uapi struct perf_event_mmap_page's layout
 * (cap_bit0, cap_bit0_is_deprecated, then these four). */
static const struct sm_cap_desc cap_table[SM_NCAPS] = {
	{ 'r', 2, "cap_user_rdpmc", "the counter may be read from user space "
	                            "(rdpmc, mrs, csrr) at index - 1" },
	{ 't', 3, "cap_user_time", "time_shift, time_mult and time_offset turn "
	                           "the cycle counter into enabled/running time" },
	{ 'z', 4, "cap_user_time_zero", "time_zero: the cycle counter as "
	                                "perf_clock() time" },
	{ 's', 5, "cap_user_time_short", "time_cycles and time_mask: the cycle "
	                                 "counter is narrower than 64 bits" },
};

const struct sm_arch_desc *sm_arch_desc(enum sm_arch arch)
{
	static const struct sm_arch_desc unknown = { "?", "?" };
	return (unsigned)arch < SM_NARCH ? &arch_table[arch] : &unknown;
}

const char *sm_arch_name(enum sm_arch arch)
{
	return sm_arch_desc(arch)->name;
}

int sm_arch_from_name(const char *name)
{
	for (int i = 0; i < SM_NARCH; i++)
		if (strcmp(name, arch_table[i].name) == 0)
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

const struct sm_cap_desc *sm_cap_desc(unsigned i)
{
	return i < SM_NCAPS ? &cap_table[i] : NULL;
}

/* "rtzs", a letter for each capability the page sets, '-' for each it
 * does not: `selfmon model`'s caps column. */
void sm_caps_letters(uint64_t capabilities, char out[SM_NCAPS + 1])
{
	for (unsigned i = 0; i < SM_NCAPS; i++)
		out[i] = (capabilities >> cap_table[i].bit) & 1 ? cap_table[i].letter
		                                                : '-';
	out[SM_NCAPS] = 0;
}
