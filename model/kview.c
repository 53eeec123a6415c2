/*
 * kview.c — the kernel state the page does not show, read from a model
 * for teaching (see model.h, "the kernel state the page does not show").
 *
 * Owns: the view (sm_model_kview()), its numbered items with their names,
 * values as text and meanings, the difference of two views and the line
 * that says it, naming the kernel function that wrote a register.  Must
 * not change the model nor decide anything about it: the registers come
 * from kernel.c (sm_x86_cr4_pce() ...), the same functions the counter
 * reads ask.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "drivers.h"

void sm_model_kview(const struct sm_model *m, struct sm_kview *v)
{
	memset(v, 0, sizeof(*v));
	v->cpu = m->k.task_cpu;
	v->user_access = m->cfg->user_access;
	switch (m->cfg->arch) {
	case SM_X86_64:
		v->access = sm_x86_cr4_pce(m);
		break;
	case SM_ARM64:
		v->access = sm_arm64_pmuserenr(m);
		v->has_pmuacr = m->cfg->pmuv3p9 && sm_kernel_at_least(m->cfg, 7, 2);
		v->pmuacr = sm_arm64_pmuacr(m);
		break;
	default:
		v->access = sm_riscv_scounteren(m);
		break;
	}
	v->nevents = m->cfg->nevents;
	for (unsigned i = 0; i < v->nevents; i++) {
		const struct sm_event *e = &m->k.ev[i];
		v->ev[i] = (struct sm_kview_event){
			.state = e->state, .counter = e->counter, .count = e->count,
			.prev_count = e->prev_count, .period_left = e->period_left,
		};
	}
}

const char *sm_state_name(enum sm_state s)
{
	static const char *const names[] = {
		[SM_OFF] = "OFF", [SM_ERROR] = "ERROR",
		[SM_INACTIVE] = "INACTIVE", [SM_ACTIVE] = "ACTIVE",
	};
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* ---- the items ------------------------------------------------------- */

unsigned sm_kview_nitems(const struct sm_config *cfg)
{
	return cfg->nevents * SM_KI_PER_EVENT + 3;
}

int sm_kview_item_kind(const struct sm_config *cfg, unsigned i, int *event)
{
	unsigned per = cfg->nevents * SM_KI_PER_EVENT;

	*event = i < per ? (int)(i / SM_KI_PER_EVENT) : -1;
	return i < per ? (int)(i % SM_KI_PER_EVENT)
	               : (int)(SM_KI_ACCESS + (i - per));
}

uint64_t sm_kview_item(const struct sm_config *cfg, const struct sm_kview *v,
                       unsigned i)
{
	int ev, kind = sm_kview_item_kind(cfg, i, &ev);
	const struct sm_kview_event *e = ev >= 0 ? &v->ev[ev] : NULL;

	switch (kind) {
	case SM_KI_STATE: return (uint64_t)e->state;
	case SM_KI_COUNTER: return (uint64_t)(int64_t)e->counter;
	case SM_KI_COUNT: return e->count;
	case SM_KI_PREV_COUNT: return e->prev_count;
	case SM_KI_PERIOD_LEFT: return (uint64_t)e->period_left;
	case SM_KI_ACCESS: return v->access;
	case SM_KI_PMUACR: return v->pmuacr;
	default: return (uint64_t)(int64_t)v->user_access;
	}
}

/* Per arch: the access register, the setting's name, and the names of
 * the register's bits (NULL: unnamed; riscv64's HPMn are numbered). */
static const struct {
	const char *reg, *setting;
	const char *bit[5];
} arch_names[SM_NARCH] = {
	[SM_X86_64] = { "CR4.PCE", "sysfs rdpmc", { "PCE" } },
	[SM_ARM64] = { "PMUSERENR_EL0", "perf_user_access",
	               { "EN", "SW", "CR", "ER", "UEN" } },
	[SM_RISCV64] = { "scounteren", "perf_user_access", { "CY", "TM", "IR" } },
};

static const char *const kind_names[] = {
	[SM_KI_STATE] = "state", [SM_KI_COUNTER] = "counter",
	[SM_KI_COUNT] = "count", [SM_KI_PREV_COUNT] = "prev_count",
	[SM_KI_PERIOD_LEFT] = "period_left",
};

static const char *reg_name(const struct sm_config *cfg, int kind)
{
	if (kind == SM_KI_ACCESS)
		return arch_names[cfg->arch].reg;
	return kind == SM_KI_PMUACR ? "PMUACR_EL1" : arch_names[cfg->arch].setting;
}

void sm_kview_item_key(const struct sm_config *cfg, unsigned i, char *buf,
                       size_t n)
{
	int ev, kind = sm_kview_item_kind(cfg, i, &ev);

	if (ev >= 0)
		snprintf(buf, n, "ev%d.%s", ev, kind_names[kind]);
	else
		snprintf(buf, n, "%s", reg_name(cfg, kind));
}

void sm_kview_item_label(const struct sm_config *cfg, unsigned i, char *buf,
                         size_t n)
{
	int ev, kind = sm_kview_item_kind(cfg, i, &ev);

	if (ev >= 0)
		snprintf(buf, n, "%s: %s", cfg->event[ev].name, kind_names[kind]);
	else if (kind == SM_KI_SETTING)
		snprintf(buf, n, "%s (setting)", reg_name(cfg, kind));
	else
		snprintf(buf, n, "%s", reg_name(cfg, kind));
}

/* A counter number's name (model.h's numbering per arch). */
static void counter_name(enum sm_arch a, int c, char *buf, size_t n)
{
	static const char *const rv_low[] = { "cycle", "time", "instret" };

	if (a == SM_X86_64 && c >= SM_X86_FIXED)
		snprintf(buf, n, "fixed counter %d", c - SM_X86_FIXED);
	else if (a == SM_X86_64)
		snprintf(buf, n, "general counter %d", c);
	else if (a == SM_ARM64 && c == SM_ARM64_CYCLE)
		snprintf(buf, n, "PMCCNTR_EL0");
	else if (a == SM_ARM64)
		snprintf(buf, n, "PMEVCNTR%d_EL0", c);
	else if (c < 3)
		snprintf(buf, n, "%s", rv_low[c]);
	else
		snprintf(buf, n, "hpmcounter%d", c);
}

/* The name of bit b of register `kind` (the access register or
 * PMUACR_EL1). */
static void bit_name(const struct sm_config *cfg, int kind, unsigned b,
                     char *buf, size_t n)
{
	if (kind == SM_KI_PMUACR && b == 31)
		snprintf(buf, n, "C");
	else if (kind == SM_KI_PMUACR)
		snprintf(buf, n, "P%u", b);
	else if (b < 5 && arch_names[cfg->arch].bit[b])
		snprintf(buf, n, "%s", arch_names[cfg->arch].bit[b]);
	else if (cfg->arch == SM_RISCV64)
		snprintf(buf, n, "HPM%u", b);
	else
		snprintf(buf, n, "bit%u", b);
}

/* The names of the bits set in v, space-separated ("none" for 0); with
 * `counters`, the names of the counters they stand for, comma-separated
 * (riscv64 scounteren). */
static void bit_names(const struct sm_config *cfg, int kind, uint64_t v,
                      bool counters, char *buf, size_t n)
{
	size_t used = 0;

	snprintf(buf, n, "none");
	for (unsigned b = 0; b < 32 && used < n; b++)
		if (v >> b & 1) {
			char name[40];
			if (counters)
				counter_name(cfg->arch, (int)b, name, sizeof(name));
			else
				bit_name(cfg, kind, b, name, sizeof(name));
			used += (size_t)snprintf(buf + used, n - used, "%s%s",
			                         !used ? "" : counters ? ", " : " ",
			                         name);
		}
}

void sm_kview_item_text(const struct sm_config *cfg, unsigned i, uint64_t v,
                        char *buf, size_t n)
{
	int ev, kind = sm_kview_item_kind(cfg, i, &ev);
	char name[40];

	switch (kind) {
	case SM_KI_STATE:
		snprintf(buf, n, "%s", sm_state_name((enum sm_state)v));
		break;
	case SM_KI_COUNTER:
		if ((int64_t)v < 0) {
			snprintf(buf, n, "none");
			break;
		}
		counter_name(cfg->arch, (int)v, name, sizeof(name));
		snprintf(buf, n, "%d (%s)", (int)v, name);
		break;
	case SM_KI_PERIOD_LEFT:
	case SM_KI_SETTING:
		snprintf(buf, n, "%" PRId64, (int64_t)v);
		break;
	case SM_KI_ACCESS:
		if (cfg->arch == SM_X86_64) {
			snprintf(buf, n, "%" PRIu64, v);
			break;
		}
		/* fall through */
	case SM_KI_PMUACR:
		snprintf(buf, n, "0x%" PRIx64, v);
		break;
	default:
		snprintf(buf, n, "%" PRIu64, v);
		break;
	}
}

/* What each setting allows (x86 sysfs rdpmc: x86_pmu_event_mapped() and
 * cr4_update_pce_mm(); arm64 armv8pmu_start(); riscv64
 * pmu_sbi_starting_cpu() and pmu_sbi_event_mapped()). */
static const char *const setting_notes[SM_NARCH][3] = {
	[SM_X86_64] = { "rdpmc never allowed",
	                "rdpmc allowed while an event with user read is mmapped",
	                "rdpmc always allowed" },
	[SM_ARM64] = { "no counter reads at EL0",
	               "counter reads at EL0 while the task has user-readable "
	               "(config1 bit 1) mmapped events" },
	[SM_RISCV64] = { "no counter reads in user mode (time only)",
	                 "a counter readable while an mmapped event with user "
	                 "access runs on it",
	                 "legacy: cycle, time and instret always readable" },
};

static const char *const state_notes[] = {
	[SM_OFF] = "disabled: not counting, index 0",
	[SM_ERROR] = "could not go on its PMU (pinned): read(2) gives EOF",
	[SM_INACTIVE] = ("enabled but off the PMU (multiplexed out, or the "
	                 "task is off the CPU): index 0"),
	[SM_ACTIVE] = "on a counter, counting",
};

void sm_kview_item_note(const struct sm_config *cfg, unsigned i, uint64_t v,
                        char *buf, size_t n)
{
	int ev, kind = sm_kview_item_kind(cfg, i, &ev);
	char bits[200];

	buf[0] = '\0';
	switch (kind) {
	case SM_KI_STATE:
		if (v < sizeof(state_notes) / sizeof(state_notes[0]))
			snprintf(buf, n, "%s", state_notes[v]);
		break;
	case SM_KI_COUNT:
		snprintf(buf, n, "event->count: counted up to the last update");
		break;
	case SM_KI_PREV_COUNT:
		snprintf(buf, n, "0x%" PRIx64 ": the counter's value at the last "
		         "update (offset = count - prev_count)", v);
		break;
	case SM_KI_PERIOD_LEFT:
		snprintf(buf, n, "events left before the counter overflows");
		break;
	case SM_KI_SETTING:
		if (v < 3 && setting_notes[cfg->arch][v])
			snprintf(buf, n, "%s", setting_notes[cfg->arch][v]);
		break;
	case SM_KI_ACCESS:
		if (cfg->arch == SM_X86_64) {
			snprintf(buf, n, v ? "rdpmc allowed in user mode"
			                   : "rdpmc in user mode is #GP (SIGSEGV)");
			break;
		}
		bit_names(cfg, kind, v, cfg->arch == SM_RISCV64, bits, sizeof(bits));
		if (cfg->arch == SM_RISCV64) {
			snprintf(buf, n, "csrr of %s allowed; of any other counter, "
			         "SIGILL", bits);
			break;
		}
		snprintf(buf, n, "%s: counter reads at EL0 %s", bits,
		         v & SM_PMUSERENR_ER ? "allowed" : "are SIGILL");
		break;
	case SM_KI_PMUACR:
		bit_names(cfg, kind, v, false, bits, sizeof(bits));
		snprintf(buf, n, "%s: the other counters read 0 at EL0", bits);
		break;
	default:
		break;
	}
}

unsigned sm_kview_diff(const struct sm_config *cfg, const struct sm_kview *a,
                       const struct sm_kview *b, struct sm_kchange *out)
{
	unsigned n = 0, items = sm_kview_nitems(cfg);

	for (unsigned i = 0; i < items && n < SM_KVIEW_MAX_ITEMS; i++) {
		uint64_t x = sm_kview_item(cfg, a, i), y = sm_kview_item(cfg, b, i);
		if (x != y)
			out[n++] = (struct sm_kchange){ .item = i, .old = x, .value = y };
	}
	return n;
}

/* ---- the line -------------------------------------------------------- */

/* Who writes a register's bits (first match; action -1: any): the kernel
 * functions modelled in kernel.c beside the register's function. */
static const struct {
	enum sm_arch arch;
	int reg;    /* SM_KI_ACCESS or SM_KI_PMUACR */
	int action; /* enum sm_action_kind, -1 any */
	int set;    /* 1 bits set, 0 cleared, -1 either */
	const char *fn;
} writers[] = {
	{ SM_X86_64, SM_KI_ACCESS, SM_ACT_MMAP, 1,
	  "x86_pmu_event_mapped() -> cr4_update_pce()" },
	{ SM_X86_64, SM_KI_ACCESS, SM_ACT_MUNMAP, 0,
	  "x86_pmu_event_unmapped() -> cr4_update_pce()" },
	{ SM_ARM64, SM_KI_ACCESS, -1, 1,
	  "armv8pmu_start() -> armv8pmu_enable_user_access()" },
	{ SM_ARM64, SM_KI_ACCESS, -1, 0,
	  "armv8pmu_start() -> armv8pmu_disable_user_access()" },
	{ SM_ARM64, SM_KI_PMUACR, -1, -1,
	  "armv8pmu_start() -> armv8pmu_enable_user_access()" },
	{ SM_RISCV64, SM_KI_ACCESS, SM_ACT_MMAP, 1,
	  "pmu_sbi_event_mapped() -> pmu_sbi_set_scounteren()" },
	{ SM_RISCV64, SM_KI_ACCESS, SM_ACT_MUNMAP, 0,
	  "pmu_sbi_event_unmapped() -> pmu_sbi_reset_scounteren()" },
	{ SM_RISCV64, SM_KI_ACCESS, -1, 1,
	  "pmu_sbi_ctr_start() -> pmu_sbi_set_scounteren()" },
	{ SM_RISCV64, SM_KI_ACCESS, -1, 0,
	  "pmu_sbi_ctr_stop() -> pmu_sbi_reset_scounteren()" },
};

static const char *writer(enum sm_arch a, int reg, enum sm_action_kind why,
                          bool set)
{
	for (size_t k = 0; k < sizeof(writers) / sizeof(writers[0]); k++)
		if (writers[k].arch == a && writers[k].reg == reg &&
		    (writers[k].action < 0 || writers[k].action == (int)why) &&
		    (writers[k].set < 0 || writers[k].set == set))
			return writers[k].fn;
	return NULL;
}

struct line {
	char *buf;
	size_t n, used;
};

__attribute__((format(printf, 2, 3)))
static void put(struct line *l, const char *fmt, ...)
{
	va_list ap;

	if (l->used >= l->n)
		return;
	va_start(ap, fmt);
	l->used += (size_t)vsnprintf(l->buf + l->used, l->n - l->used, fmt, ap);
	va_end(ap);
}

/* "bit 3 (HPM3)" or "bits 3 (HPM3), 4 (HPM4)" of the bits in v. */
static void bit_list(const struct sm_config *cfg, int kind, uint64_t v,
                     char *buf, size_t n)
{
	size_t used = (size_t)snprintf(buf, n, "bit%s",
	                               (v & (v - 1)) ? "s" : "");
	bool first = true;

	for (unsigned b = 0; b < 32 && used < n; b++)
		if (v >> b & 1) {
			char name[16];
			bit_name(cfg, kind, b, name, sizeof(name));
			used += (size_t)snprintf(buf + used, n - used, "%s %u (%s)",
			                         first ? "" : ",", b, name);
			first = false;
		}
}

/* A register's change: its bits set, then cleared, each with its
 * writer ("CR4.PCE cleared (...)" for x86's one bit). */
static void reg_change(struct line *l, const struct sm_config *cfg,
                       enum sm_action_kind why, const struct sm_kchange *c,
                       int kind)
{
	const char *reg = reg_name(cfg, kind);

	for (int set = 1; set >= 0; set--) {
		uint64_t bits = set ? c->value & ~c->old : c->old & ~c->value;
		char list[200] = "";
		if (!bits)
			continue;
		if (cfg->arch != SM_X86_64)
			bit_list(cfg, kind, bits, list, sizeof(list));
		const char *fn = writer(cfg->arch, kind, why, set);
		put(l, "%s%s%s%s %s", l->used ? "; " : "", reg, list[0] ? " " : "",
		    list, set ? "set" : "cleared");
		if (fn)
			put(l, " (%s)", fn);
	}
}

void sm_kview_change_text(const struct sm_config *cfg,
                          enum sm_action_kind why,
                          const struct sm_kchange *c, unsigned nc,
                          char *buf, size_t n)
{
	struct line l = { .buf = buf, .n = n, .used = 0 };
	int last_ev = -1;

	if (n)
		buf[0] = '\0';
	for (unsigned k = 0; k < nc; k++) {
		int ev, kind = sm_kview_item_kind(cfg, c[k].item, &ev);
		char from[64], to[64];
		if (ev < 0) {
			if (kind != SM_KI_SETTING)
				reg_change(&l, cfg, why, &c[k], kind);
			continue;
		}
		sm_kview_item_text(cfg, c[k].item, c[k].old, from, sizeof(from));
		sm_kview_item_text(cfg, c[k].item, c[k].value, to, sizeof(to));
		if (ev != last_ev)
			put(&l, "%s%s:", l.used ? "; " : "", cfg->event[ev].name);
		put(&l, "%s %s %s -> %s", ev != last_ev ? "" : ",",
		    kind_names[kind], from, to);
		last_ev = ev;
	}
	if (l.used >= n && n > 4)
		memcpy(buf + n - 4, "...", 4); /* cut, and said so */
}
