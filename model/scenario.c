/*
 * scenario.c — the scenario format (traces/NAME.scn) parsed into a struct
 * sm_scenario.
 *
 * Owns: reading a scenario file (a regular file of at most 1 MiB, read by
 * input.c), its line format (blanks, comments, the longest line: one
 * struct sm_line_format read by lines.c, which splits lines and tokens),
 * checking every directive, key and value, and filling the struct
 * sm_scenario it is given (its struct sm_config and its list of timed kernel
 * actions, kept sorted by time).  Errors are one line,
 * "NAME:LINE:COL: message" (lines.c).  Every keyword is documented for
 * users in traces/README.md: change the two together.
 *
 * Must not touch: model state (struct sm_model) or anything other than the
 * struct sm_scenario it is handed.  It calls only sm_config_default(), the
 * arch/action name tables of config.c and the verdict names of verdict.c
 * (check expect=); sm_scenario_load() also has run.c check that the
 * scenario's run stays within the cap on model events.  No global mutable
 * state: everything the parser knows lives in a struct parser on the
 * caller's stack (the line reader's copy of a line on the heap, freed
 * before it returns), and all tables below are const.
 *
 * Decisions where the format description is silent (also in the README):
 * - Columns count bytes from 1; a tab is one column.  A token is "missing"
 *   at the column just after the last token of its line.
 * - A line longer than 1024 bytes (without its '\n' or "\r\n") is reported
 *   at column 1025, where the limit is crossed.  '\r' counts as a blank
 *   anywhere, so CRLF files parse.
 * - Lines apply in order: a later pmu/clock/cpu/task/writer key overrides an
 *   earlier one ('clock' rewrites all CPUs, so put 'cpu' lines after it).
 *   'end' may appear once.
 * - hz has an upper bound the kernel imposes: the x86 cyc2ns scale is
 *   computed from kHz in 32 bits, the arm64/riscv sched_clock rate is 32 bits.
 * - 'clock cpus=' may not drop below a CPU number already named ("cpus out
 *   of range (3..8)").
 * - x86 CPU clocks may differ only once 'clock stable=no' has been read:
 *   checked after every 'clock' and 'cpu' line (check_stable_clocks()).
 * - A counter that is not spelled like any counter is "bad value"; one that
 *   is spelled right but is absent on this arch/PMU "does not exist".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "lines.h"
#include "run.h"
#include "scenario.h"
#include "verdict.h"

#define LINE_MAX_LEN 1024
#define MAX_KEYS SM_LINE_MAX_KEYS
#define FILE_MAX_BYTES SM_SCENARIO_MAX_BYTES
#define DEFAULT_CYCLES 1000 /* preempt/migrate/stall; also end after last 'at' */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define EVENT_NAME_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"

/* Lines and tokens (lines.h): blanks are spaces, tabs and '\r'; '#'
 * starts a comment anywhere. */
static const struct sm_line_format scenario_lines = {
	.max_len = LINE_MAX_LEN, .blanks = " \t\r",
	.comment = SM_COMMENT_ANYWHERE,
};

struct parser {
	struct sm_lines in;     /* the text, its current line and tokens */
	struct sm_scenario *s;
	struct sm_config *cfg;
	unsigned ndirectives;   /* directives before the current line */
	bool seen_event;        /* 'pmu' is too late after an event ... */
	bool seen_ctr_action;   /* ... or an 'at' line naming a counter */
	bool have_end;
	bool have_check, have_check_at;
	unsigned cpus_used;     /* 1 + the highest CPU number named so far */
	uint64_t last_at;       /* the largest 'at' so far */
	/* where the current line's keys go */
	const char *directive;
	void *base;                /* struct holding the keys' fields */
	struct sm_clock_cfg *clk;  /* clock keys: these CPUs' clocks */
	unsigned nclk;
	int action;                /* 'at': the action kind, else -1 */
};

/* ---- errors and numbers --------------------------------------------- */

/* "NAME:LINE:COL: message" of the current line (lines.h); -1. */
#define fail(p, col, ...) sm_line_fail(&(p)->in, (col), __VA_ARGS__)

struct range {
	uint64_t lo, hi;
};

/* "1..8", ">= 1000", "1..2^63-1". */
static const char *range_text(struct range r, char *buf, size_t len)
{
	if (r.hi == UINT64_MAX)
		snprintf(buf, len, ">= %" PRIu64, r.lo);
	else if (r.hi > UINT32_MAX && ((r.hi + 1) & r.hi) == 0)
		snprintf(buf, len, "%" PRIu64 "..2^%d-1", r.lo,
		         __builtin_ctzll(r.hi + 1));
	else
		snprintf(buf, len, "%" PRIu64 "..%" PRIu64, r.lo, r.hi);
	return buf;
}

static int number(struct parser *p, const char *what, const struct sm_tok *t,
                  uint64_t *v)
{
	if (sm_parse_u64(t->s, v) != 0)
		return fail(p, t->col, "bad number '%s' for %s", t->s, what);
	return 0;
}

static int in_range(struct parser *p, const char *what, unsigned col,
                    uint64_t v, struct range r)
{
	char buf[64];

	if (v < r.lo || v > r.hi)
		return fail(p, col, "%s out of range (%s)", what,
		            range_text(r, buf, sizeof(buf)));
	return 0;
}

static void note_cpu(struct parser *p, uint64_t cpu)
{
	if (cpu + 1 > p->cpus_used)
		p->cpus_used = (unsigned)cpu + 1;
}

/* ---- events ----------------------------------------------------------- */

static const struct {
	const char *name;
	enum sm_event_type type;
} type_by_event_name[] = {
	{ "instructions", SM_EV_INSTRUCTIONS },
	{ "cycles", SM_EV_CYCLES },
	{ "cpu-cycles", SM_EV_CYCLES },
	{ "ref-cycles", SM_EV_REF_CYCLES },
	{ "ref_cycles", SM_EV_REF_CYCLES },
	{ "task-clock", SM_EV_SOFTWARE },
	{ "cpu-clock", SM_EV_SOFTWARE },
	{ "page-faults", SM_EV_SOFTWARE },
	{ "context-switches", SM_EV_SOFTWARE },
}, type_words[] = {
	{ "instructions", SM_EV_INSTRUCTIONS },
	{ "cycles", SM_EV_CYCLES },
	{ "ref_cycles", SM_EV_REF_CYCLES },
	{ "other", SM_EV_OTHER },
	{ "software", SM_EV_SOFTWARE },
};

static void event_defaults(struct sm_event_cfg *ev, const char *name)
{
	*ev = (struct sm_event_cfg){
		.type = SM_EV_OTHER, .counter = SM_AUTO, .enabled = true,
		.mmap = true, .user = true, .rate = 1,
	};
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	for (size_t i = 0; i < ARRAY_SIZE(type_by_event_name); i++)
		if (strcmp(name, type_by_event_name[i].name) == 0)
			ev->type = type_by_event_name[i].type;
}

static int find_event(const struct sm_config *cfg, const char *name)
{
	for (unsigned i = 0; i < cfg->nevents; i++)
		if (strcmp(cfg->event[i].name, name) == 0)
			return (int)i;
	return -1;
}

static bool valid_event_name(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < SM_NAME_MAX && strspn(s, EVENT_NAME_CHARS) == n;
}

/* ---- counters --------------------------------------------------------- */

/* How a counter may be spelled, on any arch. */
enum cform {
	CF_AUTO, CF_CYCLE, CF_INSTRET, CF_FIXED, CF_GP, CF_HPM, CF_NUM, CF_N
};

static const struct {
	const char *text;
	bool numbered; /* text is a prefix of a number */
} cforms[CF_N] = {
	[CF_AUTO] = { "auto", false },
	[CF_CYCLE] = { "cycle", false },
	[CF_INSTRET] = { "instret", false },
	[CF_FIXED] = { "fixed", true },
	[CF_GP] = { "gp", true },
	[CF_HPM] = { "hpm", true },
	[CF_NUM] = { "", true },
};

/* What a spelling means on each arch.  Numbered: N is valid in
 * [lo, lo + size of pool) and names counter first + N.  P_NONE: the
 * spelling names no counter on that arch. */
enum cpool { P_NONE, P_ONE, P_GP, P_FIXED };

static const struct cmap {
	enum cpool pool;
	int first;
	unsigned lo;
} cmaps[SM_NARCH][CF_N] = {
	[SM_X86_64] = {
		[CF_AUTO] = { P_ONE, SM_AUTO, 0 },
		[CF_FIXED] = { P_FIXED, SM_X86_FIXED, 0 },
		[CF_GP] = { P_GP, 0, 0 },
		[CF_NUM] = { P_GP, 0, 0 },
	},
	[SM_ARM64] = {
		[CF_AUTO] = { P_ONE, SM_AUTO, 0 },
		[CF_CYCLE] = { P_ONE, SM_ARM64_CYCLE, 0 },
		[CF_GP] = { P_GP, 0, 0 },
		[CF_NUM] = { P_GP, 0, 0 },
	},
	[SM_RISCV64] = {
		[CF_AUTO] = { P_ONE, SM_AUTO, 0 },
		[CF_CYCLE] = { P_ONE, SM_RISCV_CYCLE, 0 },
		[CF_INSTRET] = { P_ONE, SM_RISCV_INSTRET, 0 },
		[CF_HPM] = { P_GP, 0, 3 },
		[CF_NUM] = { P_GP, 0, 3 },
	},
};

static const char *const counter_help[SM_NARCH] = {
	[SM_X86_64] = "auto, N, gpN or fixedN",
	[SM_ARM64] = "auto, N, gpN or cycle",
	[SM_RISCV64] = "auto, cycle, instret, N or hpmN",
};

static int counter_form(const char *s, uint64_t *n)
{
	for (int f = 0; f < CF_N; f++) {
		size_t len = strlen(cforms[f].text);

		if (!cforms[f].numbered && strcmp(s, cforms[f].text) == 0)
			return f;
		if (cforms[f].numbered && strncmp(s, cforms[f].text, len) == 0 &&
		    sm_parse_u64(s + len, n) == 0)
			return f;
	}
	return -1;
}

static uint64_t pool_size(const struct sm_config *cfg, enum cpool pool)
{
	switch (pool) {
	case P_GP:
		return cfg->gp;
	case P_FIXED:
		return cfg->fixed;
	case P_ONE:
		return 1;
	case P_NONE:
		break;
	}
	return 0;
}

/* ---- keys ------------------------------------------------------------- */

enum val_kind { V_NUM, V_BOOL, V_WORD };
enum field_type { F_BOOL, F_INT, F_UINT, F_U64, F_EVTYPE };
enum limit { LIM_STATIC, LIM_CPU /* hi = ncpus-1 */, LIM_CPUS /* lo >= used */ };
enum clk_field { C_NONE, C_HZ, C_MULT, C_SHIFT, C_OFFSET, C_EPOCH_CYC };

/* A V_WORD key's value parsed: 0, or -1 with the error. */
typedef int word_fn(struct parser *p, const struct sm_tok *v, uint64_t *out);

struct keydef {
	const char *name;
	enum val_kind kind;
	unsigned arches;   /* ARCH() bits it applies to; 0 = all */
	unsigned actions;  /* 'at' lines: ACT() bits it applies to */
	struct range range[SM_NARCH]; /* V_NUM, per arch */
	enum limit lim;
	/* V_WORD: parse the value */
	word_fn *word;
	/* where the value goes: a clock field of p->clk[], or p->base + off */
	enum clk_field clk;
	size_t off;
	enum field_type ft;
};

#define ARCH(a) (1u << (a))
#define X86 ARCH(SM_X86_64)
#define ARM ARCH(SM_ARM64)
#define RV ARCH(SM_RISCV64)
#define ACT(a) (1u << (a))
#define ALL_ACTIONS ((1u << SM_NACTIONS) - 1)
#define EVENT_ACTIONS \
	(ALL_ACTIONS & ~(ACT(SM_ACT_ROTATE) | ACT(SM_ACT_STALL) | \
	                 ACT(SM_ACT_CLOCK_EPOCH) | ACT(SM_ACT_LOCK_EARLY) | \
	                 ACT(SM_ACT_TICK)))
#define CYCLES_ACTIONS \
	(ACT(SM_ACT_PREEMPT) | ACT(SM_ACT_MIGRATE) | ACT(SM_ACT_STALL))
#define RANGE(l, h) { { l, h }, { l, h }, { l, h } }
#define ANY RANGE(0, UINT64_MAX)
#define FIELD(T, m) \
	.off = offsetof(T, m), \
	.ft = _Generic(((T *)0)->m, bool: F_BOOL, int: F_INT, \
	               unsigned: F_UINT, uint64_t: F_U64)
#define KEYS(t) t, ARRAY_SIZE(t)

static word_fn word_type, word_counter, word_event, word_explore,
	word_expect, word_read_format, word_group, word_cpu_type, word_pmu,
	word_output;

static const struct keydef pmu_keys[] = {
	{ "gp", V_NUM, .range = { [SM_X86_64] = { 1, 8 }, [SM_ARM64] = { 1, 31 },
	                          [SM_RISCV64] = { 1, 29 } },
	  FIELD(struct sm_config, gp) },
	{ "fixed", V_NUM, X86, .range = RANGE(0, 4),
	  FIELD(struct sm_config, fixed) },
	{ "width", V_NUM, X86 | RV,
	  .range = { [SM_X86_64] = { 32, 64 }, [SM_RISCV64] = { 1, 64 } },
	  FIELD(struct sm_config, width) },
	{ "max_period", V_NUM, X86, .range = RANGE(1, INT64_MAX),
	  FIELD(struct sm_config, max_period) },
	{ "rdpmc", V_NUM, X86, .range = RANGE(0, 2),
	  FIELD(struct sm_config, user_access) },
	{ "user_access", V_NUM, ARM | RV,
	  .range = { [SM_ARM64] = { 0, 1 }, [SM_RISCV64] = { 0, 2 } },
	  FIELD(struct sm_config, user_access) },
	{ "long", V_BOOL, ARM, FIELD(struct sm_config, long_counters) },
	{ "pmuv3p9", V_BOOL, ARM, FIELD(struct sm_config, pmuv3p9) },
	{ "smt", V_BOOL, ARM, FIELD(struct sm_config, smt) },
	{ "mux_interval", V_NUM, .range = ANY,
	  FIELD(struct sm_config, mux_interval) },
	/* the SBI PMU snapshot extension (riscv_pmu_sbi.c) */
	{ "snapshot", V_BOOL, RV, FIELD(struct sm_config, sbi_snapshot) },
	/* max_samples_per_tick (sysctl perf_event_max_sample_rate / HZ) */
	{ "max_samples", V_NUM, .range = RANGE(0, UINT32_MAX),
	  FIELD(struct sm_config, max_samples) },
};

/* Clock conversion keys shared by 'clock' (all CPUs) and 'cpu N'. */
#define CLOCK_CONV_KEYS \
	{ "hz", V_NUM, .range = { [SM_X86_64] = { 1000, UINT32_MAX * 1000ull }, \
	                          [SM_ARM64] = { 1000, UINT32_MAX }, \
	                          [SM_RISCV64] = { 1000, UINT32_MAX } }, \
	  .clk = C_HZ }, \
	{ "mult", V_NUM, .range = RANGE(1, UINT32_MAX), .clk = C_MULT }, \
	{ "shift", V_NUM, .range = RANGE(0, 32), .clk = C_SHIFT }

static const struct keydef clock_keys[] = {
	CLOCK_CONV_KEYS,
	{ "epoch_cyc", V_NUM, ARM | RV, .range = ANY, .clk = C_EPOCH_CYC },
	{ "offset", V_NUM, .range = ANY, .clk = C_OFFSET },
	{ "stable", V_BOOL, X86, FIELD(struct sm_config, stable) },
	/* arm64: what arch_counter_get_width() can give (d_clock()) */
	{ "width", V_NUM, ARM | RV,
	  .range = { [SM_ARM64] = { 56, 63 }, [SM_RISCV64] = { 8, 64 } },
	  FIELD(struct sm_config, timer_width) },
	{ "start", V_NUM, .range = ANY, FIELD(struct sm_config, start) },
	{ "cpus", V_NUM, .range = RANGE(1, SM_MAX_CPUS), .lim = LIM_CPUS,
	  FIELD(struct sm_config, ncpus) },
};

static const struct keydef cpu_keys[] = {
	CLOCK_CONV_KEYS,
	{ "clock_offset", V_NUM, .range = ANY, .clk = C_OFFSET },
	/* hybrid PMUs: the CPU's type, named by its PMU (p->base is the
	 * CPU's cfg->cpu_type[]) */
	{ "type", V_WORD, X86 | ARM, .word = word_cpu_type, .off = 0,
	  .ft = F_UINT },
};

static const struct keydef task_keys[] = {
	{ "cpu", V_NUM, .range = RANGE(0, UINT64_MAX), .lim = LIM_CPU,
	  FIELD(struct sm_config, task_cpu) },
};

static const struct keydef event_keys[] = {
	{ "type", V_WORD, .word = word_type,
	  .off = offsetof(struct sm_event_cfg, type), .ft = F_EVTYPE },
	{ "counter", V_WORD, .word = word_counter,
	  FIELD(struct sm_event_cfg, counter) },
	{ "pinned", V_BOOL, FIELD(struct sm_event_cfg, pinned) },
	{ "enabled", V_BOOL, FIELD(struct sm_event_cfg, enabled) },
	{ "mmap", V_BOOL, FIELD(struct sm_event_cfg, mmap) },
	{ "long", V_BOOL, ARM, FIELD(struct sm_event_cfg, long64) },
	{ "user", V_BOOL, ARM | RV, FIELD(struct sm_event_cfg, user) },
	{ "clockid", V_BOOL, FIELD(struct sm_event_cfg, clockid) },
	/* attr.sample_period (0: counting); perf_event_open() refuses one with
	 * bit 63 set with EINVAL (a frequency's bound is freq=) */
	{ "period", V_NUM, .range = RANGE(0, INT64_MAX),
	  FIELD(struct sm_event_cfg, period) },
	{ "left", V_NUM, .range = RANGE(1, UINT64_MAX),
	  FIELD(struct sm_event_cfg, left) },
	{ "rate", V_NUM, .range = RANGE(1, 1000000),
	  FIELD(struct sm_event_cfg, rate) },
	{ "read_format", V_WORD, .word = word_read_format,
	  FIELD(struct sm_event_cfg, read_format) },
	{ "group", V_WORD, .word = word_group,
	  FIELD(struct sm_event_cfg, group) },
	{ "pmu", V_WORD, X86 | ARM, .word = word_pmu,
	  FIELD(struct sm_event_cfg, pmu) },
	{ "output", V_WORD, .word = word_output,
	  FIELD(struct sm_event_cfg, output) },
	/* attr.freq: perf_event_open() refuses over perf_event_max_sample_rate */
	{ "freq", V_NUM, .range = RANGE(1, 100000),
	  FIELD(struct sm_event_cfg, freq) },
};

static const struct keydef action_keys[] = {
	{ "event", V_WORD, .actions = EVENT_ACTIONS, .word = word_event,
	  FIELD(struct sm_action, event) },
	{ "counter", V_WORD, .actions = ACT(SM_ACT_ROTATE_IN) | ACT(SM_ACT_MIGRATE),
	  .word = word_counter, FIELD(struct sm_action, counter) },
	/* not clock_epoch: sched_clock's epoch is global (d_cpu()) */
	{ "cpu", V_NUM, .actions = ACT(SM_ACT_MIGRATE),
	  .range = RANGE(0, UINT64_MAX), .lim = LIM_CPU,
	  FIELD(struct sm_action, cpu) },
	{ "cycles", V_NUM, .actions = CYCLES_ACTIONS, .range = ANY,
	  FIELD(struct sm_action, cycles) },
	/* _perf_event_period(): 0 and values with bit 63 are EINVAL */
	{ "period", V_NUM, .actions = ACT(SM_ACT_PERIOD),
	  .range = RANGE(1, INT64_MAX), FIELD(struct sm_action, period) },
	/* PERF_EVENT_IOC_REFRESH's argument is an int (_perf_event_refresh()) */
	{ "refresh", V_NUM, .actions = ACT(SM_ACT_REFRESH),
	  .range = RANGE(0, INT32_MAX), FIELD(struct sm_action, refresh) },
};

static const struct keydef check_keys[] = {
	{ "at", V_NUM, .range = ANY, FIELD(struct sm_scenario, check_at) },
	{ "explore", V_WORD, .word = word_explore,
	  FIELD(struct sm_scenario, explore) },
	{ "expect", V_WORD, .word = word_expect,
	  FIELD(struct sm_scenario, expect) },
};

/* expect=VERDICT: what every reader without its own expectation gets, a
 * verdict one run can get (verdict.h). */
static int word_expect(struct parser *p, const struct sm_tok *v,
                       uint64_t *out)
{
	int verdict = sm_verdict_from_name(v->s);

	if (verdict >= 0 && sm_verdict_of_run((enum sm_verdict)verdict)) {
		*out = (uint64_t)verdict;
		return 0;
	}
	return fail(p, v->col, "bad value '%s' for expect (expected PASS, "
	            "BLOCKED, WRONG_VALUE, FAULT or LIVELOCK)", v->s);
}

_Static_assert(ARRAY_SIZE(pmu_keys) <= MAX_KEYS, "pmu keys");
_Static_assert(ARRAY_SIZE(clock_keys) <= MAX_KEYS, "clock keys");
_Static_assert(ARRAY_SIZE(event_keys) <= MAX_KEYS, "event keys");
_Static_assert(SM_NACTIONS < 32, "action masks are unsigned");

static int word_type(struct parser *p, const struct sm_tok *v,
                     uint64_t *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(type_words); i++) {
		if (strcmp(v->s, type_words[i].name) == 0) {
			*out = type_words[i].type;
			return 0;
		}
	}
	return fail(p, v->col, "bad value '%s' for type (expected "
	            "instructions, cycles, ref_cycles, other or software)", v->s);
}

static int word_counter(struct parser *p, const struct sm_tok *v,
                        uint64_t *out)
{
	enum sm_arch arch = p->cfg->arch;
	uint64_t n = 0;
	int f = counter_form(v->s, &n);
	const struct cmap *m;

	if (f < 0)
		return fail(p, v->col, "bad value '%s' for counter (expected %s)",
		            v->s, counter_help[arch]);
	m = &cmaps[arch][f];
	if (!cforms[f].numbered)
		n = m->lo;
	if (m->pool == P_NONE || n < m->lo ||
	    n - m->lo >= pool_size(p->cfg, m->pool))
		return fail(p, v->col, "counter '%s' does not exist on %s", v->s,
		            sm_arch_name(arch));
	*out = (uint64_t)(int64_t)(m->first + (cforms[f].numbered ? (int)n : 0));
	return 0;
}

/* Hybrid PMUs: the PMU names a CPU type can have.  x86: the two hybrid
 * PMUs arch/x86/events/intel/core.c registers (intel_hybrid_pmu_type_map:
 * cpu_atom, cpu_core); arm64: a PMU per CPU microarchitecture, named by
 * its driver (armv8_cortex_a55 ...): any name, up to SM_MAX_PMU_TYPES. */
static int pmu_type_index(const struct sm_config *cfg, const char *name)
{
	for (unsigned k = 0; k < cfg->npmu_types; k++)
		if (!strcmp(cfg->pmu_type_name[k], name))
			return (int)k + 1;
	return 0;
}

static int word_cpu_type(struct parser *p, const struct sm_tok *v,
                         uint64_t *out)
{
	struct sm_config *cfg = p->cfg;
	int k = pmu_type_index(cfg, v->s);

	if (p->seen_event)
		return fail(p, v->col, "'cpu N type=' must come before events");
	if (cfg->arch == SM_X86_64 && strcmp(v->s, "cpu_core") &&
	    strcmp(v->s, "cpu_atom"))
		return fail(p, v->col, "bad value '%s' for type (expected "
		            "cpu_core or cpu_atom)", v->s);
	if (!valid_event_name(v->s))
		return fail(p, v->col, "bad PMU name '%s' (1 to %d of "
		            "A-Z a-z 0-9 _ . -)", v->s, SM_NAME_MAX - 1);
	if (!k && cfg->npmu_types == SM_MAX_PMU_TYPES)
		return fail(p, v->col, "too many CPU types (max %d)",
		            SM_MAX_PMU_TYPES);
	if (!k) {
		snprintf(cfg->pmu_type_name[cfg->npmu_types], SM_NAME_MAX,
		         "%s", v->s);
		k = (int)++cfg->npmu_types;
	}
	*out = (uint64_t)k;
	return 0;
}

static int word_pmu(struct parser *p, const struct sm_tok *v, uint64_t *out)
{
	int k = pmu_type_index(p->cfg, v->s);

	if (!k)
		return fail(p, v->col, "unknown pmu '%s' (no 'cpu N type=%s' "
		            "line before)", v->s, v->s);
	*out = (uint64_t)k;
	return 0;
}

/* output=EVENT: PERF_EVENT_IOC_SET_OUTPUT to an event declared before
 * (1 + its number; its conditions are checked with the line's other
 * keys, event_output()). */
static int word_output(struct parser *p, const struct sm_tok *v,
                       uint64_t *out)
{
	int i = find_event(p->cfg, v->s);

	if (i < 0)
		return fail(p, v->col, "unknown event '%s' for output (an event "
		            "declared before)", v->s);
	*out = (uint64_t)i + 1;
	return 0;
}

static int word_event(struct parser *p, const struct sm_tok *v,
                      uint64_t *out)
{
	int i = find_event(p->cfg, v->s);

	if (i < 0)
		return fail(p, v->col, "unknown event '%s'", v->s);
	*out = (uint64_t)i;
	return 0;
}

/* read_format=a,b,... or none: attr.read_format's PERF_FORMAT_* bits
 * (perf_event_open(2) refuses unknown bits: perf_copy_attr() checks
 * read_format & ~(PERF_FORMAT_MAX-1)); none is 0.  Stored with
 * SM_RF_GIVEN (model.h). */
static int word_read_format(struct parser *p, const struct sm_tok *v,
                            uint64_t *out)
{
	static const struct { const char *name; unsigned bit; } bits[] = {
		{ "total_time_enabled", SM_RF_TOTAL_TIME_ENABLED },
		{ "total_time_running", SM_RF_TOTAL_TIME_RUNNING },
		{ "id", SM_RF_ID },
		{ "group", SM_RF_GROUP },
		{ "lost", SM_RF_LOST },
	};
	char *rest = v->s;
	unsigned rf = 0;

	if (strcmp(v->s, "none") == 0) {
		*out = SM_RF_GIVEN;
		return 0;
	}
	for (char *name = sm_split_next(&rest, ','); name;
	     name = sm_split_next(&rest, ',')) {
		unsigned col = v->col + (unsigned)(name - v->s), bit = 0;
		for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
			if (strcmp(name, bits[i].name) == 0)
				bit = bits[i].bit;
		if (!bit)
			return fail(p, col, "bad value '%s' for read_format (expected "
			            "none, or a comma list of total_time_enabled, "
			            "total_time_running, id, group, lost)", name);
		if (rf & bit)
			return fail(p, col, "read_format names '%s' twice", name);
		rf |= bit;
	}
	*out = SM_RF_GIVEN | rf;
	return 0;
}

/* group=LEADER: the event is opened with the leader's fd as group_fd, so
 * it joins the leader's group (perf_event_open(): the group_fd event must
 * be open already, and be a group leader itself, else EINVAL).  Stored as
 * the leader's index + 1 (model.h). */
static int word_group(struct parser *p, const struct sm_tok *v,
                      uint64_t *out)
{
	int i = find_event(p->cfg, v->s);

	if (i < 0)
		return fail(p, v->col, "unknown event '%s' for group (the leader is "
		            "declared on an earlier line)", v->s);
	if (p->cfg->event[i].group)
		return fail(p, v->col, "'%s' is not a group leader: it is in "
		            "'%s''s group (perf_event_open() refuses a sibling's fd "
		            "as group_fd with EINVAL)", v->s,
		            p->cfg->event[p->cfg->event[i].group - 1].name);
	*out = (uint64_t)i + 1;
	return 0;
}

/* Actions that exist on some arches only (0 = all): x86 sched_clock has no
 * epoch; x86 stores are seen in program order. */
static const unsigned action_arches[SM_NACTIONS] = {
	[SM_ACT_CLOCK_EPOCH] = ARM | RV,
	[SM_ACT_LOCK_EARLY] = ARM | RV,
};

bool sm_action_applies(enum sm_action_kind kind, enum sm_arch arch)
{
	return !action_arches[kind] || (action_arches[kind] & ARCH(arch));
}

bool sm_scenario_uses(const struct sm_scenario *s, enum sm_action_kind kind)
{
	bool used = s->explore & (1u << kind);

	for (unsigned i = 0; i < s->nactions && !used; i++)
		used = s->act[i].act.kind == kind;
	return used;
}

/* explore=a,b,c: a set of action names, each valid on this arch. */
static int word_explore(struct parser *p, const struct sm_tok *v,
                        uint64_t *out)
{
	char *rest = v->s;

	*out = 0;
	for (char *name = sm_split_next(&rest, ','); name;
	     name = sm_split_next(&rest, ',')) {
		unsigned col = v->col + (unsigned)(name - v->s);
		int kind = sm_action_from_name(name);
		if (kind < 0)
			return fail(p, col, "unknown action '%s'", name);
		if (!sm_action_applies((enum sm_action_kind)kind, p->cfg->arch))
			return fail(p, col, "%s does not apply to %s", name,
			            sm_arch_name(p->cfg->arch));
		*out |= 1u << kind;
	}
	return 0;
}

static const char *arch_list(unsigned arches, char *buf, size_t len)
{
	unsigned n = (unsigned)__builtin_popcount(arches), k = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (int a = 0; a < SM_NARCH; a++) {
		if (!(arches & ARCH(a)))
			continue;
		k++;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		                         k == 1 ? "" : k == n ? " and " : ", ",
		                         sm_arch_name((enum sm_arch)a));
		if (used >= len)
			break;
	}
	return buf;
}

static int check_applies(struct parser *p, const struct keydef *k,
                         const struct sm_tok *key)
{
	char buf[64];

	if (k->arches && !(k->arches & ARCH(p->cfg->arch)))
		return fail(p, key->col, "%s only applies to %s", k->name,
		            arch_list(k->arches, buf, sizeof(buf)));
	if (p->action == SM_ACT_CLOCK_EPOCH && !strcmp(k->name, "cpu"))
		return fail(p, key->col, "clock_epoch takes no cpu: sched_clock "
		            "is one clock for all CPUs");
	if (p->action >= 0 && !(k->actions & ACT(p->action)))
		return fail(p, key->col, "key '%s' does not apply to action '%s'",
		            k->name, sm_action_name((enum sm_action_kind)p->action));
	return 0;
}

static struct range key_range(const struct parser *p, const struct keydef *k)
{
	struct range r = k->range[p->cfg->arch];

	if (k->lim == LIM_CPU)
		r.hi = p->cfg->ncpus - 1;
	if (k->lim == LIM_CPUS && r.lo < p->cpus_used)
		r.lo = p->cpus_used;
	return r;
}

static int key_value(struct parser *p, const struct keydef *k,
                     const struct sm_tok *v, uint64_t *out)
{
	switch (k->kind) {
	case V_BOOL:
		if (strcmp(v->s, "yes") == 0 || strcmp(v->s, "no") == 0) {
			*out = strcmp(v->s, "yes") == 0;
			return 0;
		}
		return fail(p, v->col, "bad value '%s' for %s (expected yes or no)",
		            v->s, k->name);
	case V_WORD:
		return k->word(p, v, out);
	case V_NUM:
		if (number(p, k->name, v, out) < 0 ||
		    in_range(p, k->name, v->col, *out, key_range(p, k)) < 0)
			return -1;
		if (k->lim == LIM_CPU)
			note_cpu(p, *out);
		return 0;
	}
	return -1;
}

static void set_clock(struct sm_clock_cfg *c, enum clk_field f,
                      enum sm_arch arch, uint64_t v)
{
	switch (f) {
	case C_HZ:
		c->hz = v;
		c->mult = 0;
		c->shift = 0;
		break;
	case C_MULT:
		c->mult = (uint32_t)v;
		c->hz = 0;
		break;
	case C_SHIFT:
		c->shift = (uint16_t)v;
		c->hz = 0;
		break;
	case C_OFFSET:
		if (arch == SM_X86_64)
			c->offset_ns = v;
		else
			c->epoch_ns = v;
		break;
	case C_EPOCH_CYC:
		c->epoch_cyc = v;
		break;
	case C_NONE:
		break;
	}
}

static void store(struct parser *p, const struct keydef *k, uint64_t v)
{
	char *f;

	if (k->clk != C_NONE) {
		for (unsigned i = 0; i < p->nclk; i++)
			set_clock(&p->clk[i], k->clk, p->cfg->arch, v);
		return;
	}
	f = (char *)p->base + k->off;
	switch (k->ft) {
	case F_BOOL:
		*(bool *)f = v != 0;
		break;
	case F_INT:
		*(int *)f = (int)(int64_t)v;
		break;
	case F_UINT:
		*(unsigned *)f = (unsigned)v;
		break;
	case F_U64:
		*(uint64_t *)f = v;
		break;
	case F_EVTYPE:
		*(enum sm_event_type *)f = (enum sm_event_type)v;
		break;
	}
}

static struct sm_keys key_table(const struct keydef *keys, size_t n)
{
	return (struct sm_keys){ &keys[0].name, n, sizeof(keys[0]) };
}

/* Column of key `name` on the current line, 0 if it was not given. */
static unsigned key_col(const struct parser *p, const struct keydef *keys,
                        size_t n, const char *name)
{
	int k = sm_keys_find(key_table(keys, n), name);

	return k >= 0 ? p->in.seen[k] : 0;
}

static int parse_key(struct parser *p, struct sm_tok *t,
                     const struct keydef *keys, size_t n)
{
	const struct keydef *k;
	struct sm_tok val;
	uint64_t v = 0;
	int i = sm_line_key(&p->in, t, key_table(keys, n), p->directive, &val);

	if (i < 0)
		return -1;
	k = &keys[i];
	if (check_applies(p, k, t) < 0 || key_value(p, k, &val, &v) < 0)
		return -1;
	store(p, k, v);
	return 0;
}

/* Keys are the tokens from `first` on. */
static int parse_keys(struct parser *p, unsigned first,
                      const struct keydef *keys, size_t n)
{
	for (unsigned i = first; i < p->in.ntok; i++)
		if (parse_key(p, &p->in.tok[i], keys, n) < 0)
			return -1;
	return 0;
}

/* mult and shift come as a pair, and not with hz on the same line. */
static int check_conversion(struct parser *p, const struct keydef *keys,
                            size_t n)
{
	unsigned hz = key_col(p, keys, n, "hz");
	unsigned mult = key_col(p, keys, n, "mult");
	unsigned shift = key_col(p, keys, n, "shift");

	if (!mult != !shift)
		return fail(p, mult ? mult : shift, "mult and shift go together");
	if (hz && mult)
		return fail(p, hz > mult ? hz : mult,
		            "hz cannot be given with mult and shift");
	return 0;
}

/* x86 with a stable TSC: every CPU has the boot CPU's cyc2ns.
 * arch/x86/kernel/tsc.c cyc2ns_init_secondary_cpus() copies it to every
 * CPU; tsc_refine_calibration_work() rescales all CPUs alike; the one
 * per-CPU rescale, time_cpufreq_notifier(), marks the TSC unstable first
 * (mark_tsc_unstable() -> clear_sched_clock_stable()); and
 * arch_perf_update_userpage() sets cap_user_time only while
 * sched_clock_stable().  So CPU clocks may differ only with stable=no,
 * where they stand for sched_clock_cpu()'s per-CPU clocks
 * (kernel/sched/clock.c).  Checked after each 'clock' and 'cpu' line, so
 * 'clock stable=no' must come before the 'cpu' lines. */
static bool x86_clocks_differ(const struct sm_config *cfg)
{
	for (unsigned k = 1; k < SM_MAX_CPUS; k++) {
		const struct sm_clock_cfg *a = &cfg->cpu[k], *b = &cfg->cpu[0];
		if (a->hz != b->hz || a->mult != b->mult ||
		    a->shift != b->shift || a->offset_ns != b->offset_ns)
			return true;
	}
	return false;
}

static int check_stable_clocks(struct parser *p, unsigned col)
{
	if (p->cfg->arch != SM_X86_64 || !p->cfg->stable ||
	    !x86_clocks_differ(p->cfg))
		return 0;
	return fail(p, col, "CPU clocks differ while the TSC is stable: x86 "
	            "keeps one cyc2ns for all CPUs then (say 'clock stable=no' "
	            "before 'cpu' lines)");
}

/* The column of the first key of the line, else of its directive. */
static unsigned first_key_col(const struct parser *p, unsigned from)
{
	return p->in.ntok > from ? p->in.tok[from].col : p->in.tok[0].col;
}

/* arm64: the timer's width follows from its rate as
 * arch_counter_get_width() computes it (clock.c): a line that gives the
 * rate (hz=) sets it, and a width= other than that rate's is refused.
 * With mult/shift the rate is not known: width= is any it can be. */
static int arm64_timer_width(struct parser *p)
{
	unsigned col = key_col(p, KEYS(clock_keys), "width");
	uint64_t hz = p->cfg->cpu[0].hz;
	unsigned w = hz ? sm_arm64_timer_width(hz) : p->cfg->timer_width;

	if (p->cfg->arch != SM_ARM64)
		return 0;
	if (col && p->cfg->timer_width != w)
		return fail(p, col, "width=%u is not the arm64 timer's width at "
		            "%" PRIu64 " Hz (arch_counter_get_width() gives %u)",
		            p->cfg->timer_width, hz, w);
	p->cfg->timer_width = w;
	return 0;
}

/* ---- directives --------------------------------------------------------- */

/* Positional token i, or "missing WHAT" (also when it looks like a key);
 * an extra token is "unexpected" (lines.h). */
#define positional(p, i, what) sm_line_word(&(p)->in, (i), (what))
#define no_more(p, i) sm_line_no_more(&(p)->in, (i))

static int d_arch(struct parser *p)
{
	struct sm_tok *t;
	int arch;

	if (p->ndirectives)
		return fail(p, p->in.tok[0].col, "'arch' must come first");
	if (!(t = positional(p, 1, "arch name")))
		return -1;
	arch = sm_arch_from_name(t->s);
	if (arch < 0)
		return fail(p, t->col, "unknown arch '%s' (expected x86_64, "
		            "arm64 or riscv64)", t->s);
	if (no_more(p, 2) < 0)
		return -1;
	sm_config_default(p->cfg, (enum sm_arch)arch);
	return 0;
}

static int d_pmu(struct parser *p)
{
	if (p->seen_event)
		return fail(p, p->in.tok[0].col, "'pmu' must come before events");
	if (p->seen_ctr_action)
		return fail(p, p->in.tok[0].col,
		            "'pmu' must come before actions that name counters");
	p->base = p->cfg;
	return parse_keys(p, 1, KEYS(pmu_keys));
}

static int d_clock(struct parser *p)
{
	p->base = p->cfg;
	p->clk = p->cfg->cpu;
	p->nclk = SM_MAX_CPUS;
	if (parse_keys(p, 1, KEYS(clock_keys)) < 0 ||
	    check_conversion(p, KEYS(clock_keys)) < 0)
		return -1;
	/* its clock keys set every CPU alike: only stable=yes can meet
	 * CPU clocks that differ */
	unsigned stable = key_col(p, KEYS(clock_keys), "stable");
	if (check_stable_clocks(p, stable ? stable : p->in.tok[0].col) < 0)
		return -1;
	return arm64_timer_width(p);
}

static int d_cpu(struct parser *p)
{
	struct sm_tok *t;
	char what[48];
	uint64_t n;

	/* kernel/time/sched_clock.c keeps one clock_data for the system:
	 * mult, shift, epoch_cyc and epoch_ns are those of every CPU (arm64
	 * 'cpu' lines take a hybrid type= only) */
	for (unsigned i = 2; p->cfg->arch != SM_X86_64 && i <= p->in.ntok; i++)
		if (p->cfg->arch == SM_RISCV64 || (i < p->in.ntok &&
		    strncmp(p->in.tok[i].s, "type=", 5)))
			return fail(p, p->in.tok[0].col, "'cpu' lines apply to "
			            "x86_64 only: %s has one sched_clock for all "
			            "CPUs (use 'clock')",
			            sm_arch_name(p->cfg->arch));
	t = positional(p, 1, "cpu number");
	if (!t || number(p, "cpu", t, &n) < 0)
		return -1;
	snprintf(what, sizeof(what), "cpu %.40s", t->s);
	if (in_range(p, what, t->col, n,
	             (struct range){ 0, p->cfg->ncpus - 1 }) < 0)
		return -1;
	note_cpu(p, n);
	p->clk = &p->cfg->cpu[n];
	p->nclk = 1;
	p->base = &p->cfg->cpu_type[n];
	if (parse_keys(p, 2, KEYS(cpu_keys)) < 0 ||
	    check_conversion(p, KEYS(cpu_keys)) < 0)
		return -1;
	return check_stable_clocks(p, first_key_col(p, 2));
}

static int d_task(struct parser *p)
{
	p->base = p->cfg;
	return parse_keys(p, 1, KEYS(task_keys));
}

/* A group member: perf_event_open() refuses attr.pinned with a group_fd
 * ("Only a group leader can be exclusive or pinned": EINVAL); software
 * events in groups are not modelled (a software event may join a
 * hardware group, and a hardware one moves a software group to its PMU:
 * move_group). */
static int check_group(struct parser *p, const struct sm_event_cfg *e)
{
	unsigned col = key_col(p, KEYS(event_keys), "group");
	unsigned pin = key_col(p, KEYS(event_keys), "pinned");

	if (!e->group)
		return 0;
	if (e->pinned)
		return fail(p, pin, "pinned applies to a group leader only (the "
		            "group's leader decides: perf_event_open() refuses a "
		            "pinned sibling)");
	if (e->type == SM_EV_SOFTWARE ||
	    p->cfg->event[e->group - 1].type == SM_EV_SOFTWARE)
		return fail(p, col, "software events in groups are not modelled "
		            "(group hardware events only)");
	/* perf_event_open(): a sibling goes in its leader's PMU context
	 * (group_leader->pmu_ctx->pmu != pmu is EINVAL for hardware events),
	 * so a hybrid group is of one CPU type's PMU */
	if (e->pmu != p->cfg->event[e->group - 1].pmu)
		return fail(p, col, "a group's members share one PMU: '%s' is on "
		            "another CPU type's than its leader", e->name);
	return 0;
}

/* Hybrid PMUs: a hardware event is opened on one CPU type's PMU.  Given
 * as pmu=; without it, x86 opens a generic event (PERF_TYPE_HARDWARE,
 * no extended type) on the PMU registered as PERF_TYPE_RAW, which
 * init_hw_perf_events() makes the big core's: cpu_core.  On arm64 every
 * PMU registers with type -1 and perf_init_event() tries them in its
 * list order (the last registered first), which follows the probe
 * order: not a scenario fact, so pmu= is required there. */
static int event_pmu(struct parser *p, struct sm_event_cfg *e,
                     const struct sm_tok *name)
{
	unsigned col = key_col(p, KEYS(event_keys), "pmu");

	if (col && e->type == SM_EV_SOFTWARE)
		return fail(p, col, "pmu= applies to hardware events: '%s' is a "
		            "software event", name->s);
	if (col || !p->cfg->npmu_types || e->type == SM_EV_SOFTWARE)
		return 0;
	if (p->cfg->arch == SM_ARM64)
		return fail(p, p->in.endcol, "missing pmu= (a hybrid arm64 "
		            "event names its CPU type's PMU)");
	e->pmu = (unsigned)pmu_type_index(p->cfg, "cpu_core");
	if (!e->pmu)
		return fail(p, p->in.endcol, "missing pmu= (a generic event "
		            "goes to cpu_core, and no cpu line has that type)");
	return 0;
}

/* perf_event_set_output() refuses (EINVAL) an event that has a mapping
 * of its own (mmap_count), a target whose buffer is not mapped
 * (rb->mmap_count: a redirected target's is its own target's) and a
 * target of another clock. */
static int event_output(struct parser *p, const struct sm_event_cfg *e)
{
	unsigned col = key_col(p, KEYS(event_keys), "output");
	const struct sm_event_cfg *t = e->output ? &p->cfg->event[e->output - 1]
	                                         : NULL;

	if (!t)
		return 0;
	if (e->mmap)
		return fail(p, col, "output= needs mmap=no: the kernel refuses "
		            "to redirect an event that is mmapped");
	const struct sm_event_cfg *rb =
		&p->cfg->event[sm_rb_event(p->cfg->event, e->output - 1)];
	if (!rb->mmap)
		return fail(p, col, "output=%s needs '%s' mmapped (mmap=yes): its "
		            "buffer must exist", t->name, rb->name);
	if (t->clockid != e->clockid)
		return fail(p, col, "output=%s: clockid differs (the kernel "
		            "refuses to mix clocks in one buffer)", t->name);
	return 0;
}

static int d_event(struct parser *p)
{
	struct sm_config *cfg = p->cfg;
	struct sm_tok *t;

	if (cfg->nevents == SM_MAX_EVENTS)
		return fail(p, p->in.tok[0].col, "too many events (max %d)",
		            SM_MAX_EVENTS);
	if (!(t = positional(p, 1, "event name")))
		return -1;
	if (!valid_event_name(t->s))
		return fail(p, t->col, "bad event name '%s' (1 to %d of "
		            "A-Z a-z 0-9 _ . -)", t->s, SM_NAME_MAX - 1);
	if (find_event(cfg, t->s) >= 0)
		return fail(p, t->col, "duplicate event '%s'", t->s);
	event_defaults(&cfg->event[cfg->nevents], t->s);
	p->base = &cfg->event[cfg->nevents];
	if (parse_keys(p, 2, KEYS(event_keys)) < 0)
		return -1;
	/* task-clock and cpu-clock count the ns they run
	 * (task_clock_event_update(), cpu_clock_event_update()), no rate */
	unsigned rate = key_col(p, KEYS(event_keys), "rate");
	if (rate && sm_event_is_clock(&cfg->event[cfg->nevents]))
		return fail(p, rate, "rate does not apply to %s: a software clock "
		            "counts the ns it runs", t->s);
	if (event_pmu(p, &cfg->event[cfg->nevents], t) < 0 ||
	    event_output(p, &cfg->event[cfg->nevents]) < 0 ||
	    check_group(p, &cfg->event[cfg->nevents]) < 0)
		return -1;
	/* attr.sample_period and attr.sample_freq are one field */
	unsigned freq = key_col(p, KEYS(event_keys), "freq");
	if (freq && cfg->event[cfg->nevents].period)
		return fail(p, freq, "freq= and period= are one field "
		            "(attr.sample_freq, attr.sample_period)");
	if (freq && cfg->event[cfg->nevents].type == SM_EV_SOFTWARE)
		return fail(p, freq, "freq= is modelled for hardware events only");
	cfg->nevents++;
	p->seen_event = true;
	return 0;
}

static int d_writer(struct parser *p)
{
	static const char *const modes[] = {
		[SM_WRITER_LOCAL] = "local", [SM_WRITER_REMOTE] = "remote",
	};
	struct sm_tok *t = positional(p, 1, "writer mode");

	if (!t)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		if (strcmp(t->s, modes[i]) == 0) {
			p->cfg->writer = (enum sm_writer)i;
			return no_more(p, 2);
		}
	}
	return fail(p, t->col, "bad value '%s' for writer (expected local or "
	            "remote)", t->s);
}

/* kernel NAME[,NAME...]: the kernel variants (variant.c) the scenario
 * runs under; `base` is the kernel as it is.  After `arch`. */
static int d_kernel(struct parser *p)
{
	char why[200];
	struct sm_tok *t = positional(p, 1, "kernel name (base or a variant)");

	if (!t)
		return -1;
	if (sm_kernel_parse(t->s, (int)p->cfg->arch, &p->cfg->kernel, why,
	                    sizeof(why)) < 0)
		return fail(p, t->col, "%s", why);
	return no_more(p, 2);
}

static void insert_action(struct sm_scenario *s,
                          const struct sm_timed_action *ta)
{
	unsigned i = s->nactions;

	while (i > 0 && s->act[i - 1].at > ta->at) {
		s->act[i] = s->act[i - 1];
		i--;
	}
	s->act[i] = *ta;
	s->nactions++;
}

/* The sample period of the event an action names (the first event by
 * default; an event not yet declared is the default 'instructions'). */
static uint64_t period_of(const struct parser *p, const struct sm_action *a)
{
	int i = a->event == SM_AUTO ? 0 : a->event;

	return (unsigned)i < p->cfg->nevents ? p->cfg->event[i].period : 0;
}

/* is_sampling_event() of the action's event: a period or a frequency
 * (attr.sample_period and attr.sample_freq are one field). */
static bool sampling(const struct parser *p, const struct sm_action *a)
{
	int i = a->event == SM_AUTO ? 0 : a->event;

	return (unsigned)i < p->cfg->nevents &&
	       (p->cfg->event[i].period || p->cfg->event[i].freq);
}

/* An action the kernel refuses on a counting event with EINVAL before
 * anything changes (its ioctl's function `fn`): no scenario asks for it. */
static int sampling_only(struct parser *p, const struct sm_timed_action *ta,
                         const char *action, const char *fn)
{
	int i = ta->act.event == SM_AUTO ? 0 : ta->act.event;

	return fail(p, p->in.tok[2].col, "%s applies to a sampling event only: "
	            "'%s' has no period= (the kernel's %s() refuses a counting "
	            "event with EINVAL)", action, p->cfg->nevents ?
	            p->cfg->event[i].name : "instructions", fn);
}

/* Defaults and requirements that depend on the action, after its keys. */
static int finish_action(struct parser *p, struct sm_timed_action *ta)
{
	unsigned kind = ta->act.kind;
	int ev = ta->act.event == SM_AUTO ? 0 : ta->act.event;

	if ((ACT(kind) & CYCLES_ACTIONS) &&
	    !key_col(p, KEYS(action_keys), "cycles"))
		ta->act.cycles = DEFAULT_CYCLES;
	if (kind == SM_ACT_PERIOD && !key_col(p, KEYS(action_keys), "period"))
		return fail(p, p->in.endcol, "missing period");
	if (kind == SM_ACT_PERIOD && (unsigned)ev < p->cfg->nevents &&
	    p->cfg->event[ev].freq)
		return fail(p, p->in.tok[2].col, "period of a frequency event "
		            "(freq=) sets its sample_freq: not modelled");
	if (kind == SM_ACT_PERIOD && period_of(p, &ta->act) == 0)
		return sampling_only(p, ta, "period", "_perf_event_period");
	if (kind == SM_ACT_REFRESH && !key_col(p, KEYS(action_keys), "refresh"))
		ta->act.refresh = 1;
	if (kind == SM_ACT_REFRESH && !sampling(p, &ta->act))
		return sampling_only(p, ta, "refresh", "_perf_event_refresh");
	if (kind == SM_ACT_MMAP && (unsigned)ev < p->cfg->nevents &&
	    p->cfg->event[ev].output)
		return fail(p, p->in.tok[2].col, "mmap of '%s': a redirected event "
		            "(output=) has its target's buffer, no page of its own",
		            p->cfg->event[ev].name);
	if (ta->act.counter != SM_AUTO)
		p->seen_ctr_action = true;
	return 0;
}

static int d_at(struct parser *p)
{
	struct sm_timed_action ta = { .line = p->in.lineno };
	struct sm_tok *t, *a;
	char buf[64];
	int kind;

	if (p->s->nactions == SM_MAX_TIMED)
		return fail(p, p->in.tok[0].col, "too many actions (max %d)",
		            SM_MAX_TIMED);
	if (!(t = positional(p, 1, "cycle count")) ||
	    number(p, "cycle", t, &ta.at) < 0)
		return -1;
	if (p->have_end && ta.at > p->s->end)
		return fail(p, t->col, "action at %" PRIu64 " is after end (%"
		            PRIu64 ")", ta.at, p->s->end);
	if (!(a = positional(p, 2, "action")))
		return -1;
	if ((kind = sm_action_from_name(a->s)) < 0)
		return fail(p, a->col, "unknown action '%s'", a->s);
	if (action_arches[kind] && !(action_arches[kind] & ARCH(p->cfg->arch)))
		return fail(p, a->col, "%s only applies to %s", a->s,
		            arch_list(action_arches[kind], buf, sizeof(buf)));
	ta.act = (struct sm_action){
		.kind = (enum sm_action_kind)kind, .event = SM_AUTO,
		.cpu = SM_AUTO, .counter = SM_AUTO,
	};
	p->base = &ta.act;
	p->action = kind;
	if (parse_keys(p, 3, KEYS(action_keys)) < 0 || finish_action(p, &ta) < 0)
		return -1;
	insert_action(p->s, &ta);
	if (ta.at > p->last_at)
		p->last_at = ta.at;
	return 0;
}

static int d_end(struct parser *p)
{
	struct sm_tok *t;
	uint64_t end;

	if (p->have_end)
		return fail(p, p->in.tok[0].col, "duplicate 'end'");
	if (!(t = positional(p, 1, "cycle count")) ||
	    number(p, "end", t, &end) < 0)
		return -1;
	if (p->s->nactions && p->last_at > end)
		return fail(p, t->col, "action at %" PRIu64 " is after end (%"
		            PRIu64 ")", p->last_at, end);
	if (no_more(p, 2) < 0)
		return -1;
	p->s->end = end;
	p->have_end = true;
	return 0;
}

static int d_check(struct parser *p)
{
	if (p->have_check)
		return fail(p, p->in.tok[0].col, "duplicate 'check'");
	p->have_check = true;
	p->base = p->s;
	if (parse_keys(p, 1, KEYS(check_keys)) < 0)
		return -1;
	p->have_check_at = key_col(p, KEYS(check_keys), "at") != 0;
	return 0;
}

static const struct directive {
	const char *name;
	int (*parse)(struct parser *p);
} directives[] = {
	{ "arch", d_arch },     { "pmu", d_pmu },     { "clock", d_clock },
	{ "cpu", d_cpu },       { "task", d_task },   { "event", d_event },
	{ "writer", d_writer }, { "at", d_at },       { "end", d_end },
	{ "check", d_check },   { "kernel", d_kernel },
};

/* ---- lines -------------------------------------------------------------- */

/* The current line, which has tokens. */
static int parse_line(struct parser *p)
{
	int i = sm_keys_find(SM_KEYS(directives, name), p->in.tok[0].s);
	const struct directive *d = i >= 0 ? &directives[i] : NULL;
	int r;

	if (!d)
		return fail(p, p->in.tok[0].col, "unknown directive '%s'",
		            p->in.tok[0].s);
	p->directive = d->name;
	p->base = NULL;
	p->clk = NULL;
	p->nclk = 0;
	p->action = -1;
	r = d->parse(p);
	p->ndirectives++;
	return r;
}

static int finish(struct parser *p)
{
	struct sm_config *cfg = p->cfg;

	/* hybrid: a CPU of no type would run no hardware PMU at all */
	for (unsigned k = 0; cfg->npmu_types && k < cfg->ncpus; k++)
		if (!cfg->cpu_type[k])
			return sm_lines_fail(&p->in, "cpu %u has no type= (once "
			                     "one CPU has a type, every CPU needs "
			                     "one)", k);

	if (cfg->nevents == 0 && cfg->npmu_types)
		return sm_lines_fail(&p->in, "no event: a scenario with CPU "
		                     "types declares its events (the default "
		                     "'instructions' names no PMU)");
	if (cfg->nevents == 0) {
		event_defaults(&cfg->event[0], "instructions");
		cfg->nevents = 1;
	}
	if (!p->have_end)
		p->s->end = p->last_at > UINT64_MAX - DEFAULT_CYCLES
		            ? UINT64_MAX : p->last_at + DEFAULT_CYCLES;
	if (!p->have_check_at)
		p->s->check_at = p->s->end;
	return 0;
}

int sm_scenario_parse(const char *name, const char *text,
                      struct sm_scenario *s, char *err, size_t errlen)
{
	struct parser p = {
		.s = s, .cfg = &s->cfg, .cpus_used = 1, .action = -1,
	};
	int rc;

	sm_lines_init(&p.in, &scenario_lines, name, text, err, errlen);
	memset(s, 0, sizeof(*s));
	s->explore = SM_EXPLORE_DEFAULT;
	s->expect = -1;
	snprintf(s->name, sizeof(s->name), "%s", p.in.name);
	sm_config_default(&s->cfg, SM_X86_64);
	while ((rc = sm_lines_next(&p.in)) == 1 && parse_line(&p) == 0)
		;
	if (rc == 0)
		rc = finish(&p);
	sm_lines_free(&p.in);
	return rc != 0 ? -1 : 0;
}

/* ---- files -------------------------------------------------------------- */

/* The whole file, NUL-terminated (the caller frees it); or NULL with the
 * reason in why.  A regular file of at most 1 MiB (input.c). */
static char *read_text(const char *path, char *why, size_t whylen)
{
	size_t n = 0;
	char *buf = sm_read_input(path, FILE_MAX_BYTES, &n, why, whylen);

	if (buf && memchr(buf, '\0', n)) {
		snprintf(why, whylen, "file contains a NUL byte");
		free(buf);
		return NULL;
	}
	return buf;
}

int sm_scenario_load(const char *path, struct sm_scenario *s, char *err,
                     size_t errlen)
{
	char why[128];
	char *text;
	int r;

	if (!path)
		path = "";
	if (sm_text_check(path, why, sizeof(why)) < 0) { /* it names reports */
		if (err && errlen)
			snprintf(err, errlen, "%s: bad scenario name: %s", path, why);
		return -1;
	}
	text = read_text(path, why, sizeof(why));
	if (!text) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, why);
		return -1;
	}
	r = sm_scenario_parse(path, text, s, err, errlen);
	free(text);
	if (r == 0) /* the one place a scenario meets the model: run.c */
		r = sm_scenario_bounded(s, err ? err : why,
		                        err ? errlen : sizeof(why));
	return r;
}
