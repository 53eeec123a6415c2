/*
 * hw_compare.c — the model driven by a recorded trace and compared with
 * it (see hw_compare.h).
 *
 * Owns: building the model a trace describes (its arch, CPUs, events, and
 * the clock and counter width its first mark shows), replaying the
 * recorded actions and context switches (as preemptions, at most
 * SM_TRACE_MAX_PREEMPTIONS in all), trying each split of the switches
 * counted during an action, and comparing each mark with the model's page
 * on the fields the model decides without a clock: lock, index,
 * capabilities, pmc_width, size, and the offset right after a reset
 * (with a counter in use: up to the counter's advance, as
 * reset_offset_agrees() says).
 * Must not touch real events or parse text itself: hw_trace.c parses.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hw_compare.h"
#include "hw_trace.h"
#include "model.h"

#define MAX_EV HW_TRACE_MAX_EVENTS

struct cmp {
	struct hw_trace t;
	size_t *next_action;     /* index of the first action after line k */
	uint64_t replayed;       /* preemptions replayed so far */
	size_t mark_upto;        /* last_page()'s cache: lines scanned ... */
	long last_mark[MAX_EV];  /* ... and each event's last mark in them */
	const struct hw_trace_line *cur; /* the switches line being replayed */
	bool capped;             /* the preemption cap was hit */
	char err[256];           /* the model's message (names no file) */
};

static enum sm_event_type type_of(const char *name, bool software)
{
	if (software)
		return SM_EV_SOFTWARE;
	if (!strcmp(name, "instructions"))
		return SM_EV_INSTRUCTIONS;
	if (!strcmp(name, "cycles"))
		return SM_EV_CYCLES;
	if (!strcmp(name, "ref-cycles"))
		return SM_EV_REF_CYCLES;
	return SM_EV_OTHER;
}

/* The first mark of event i, of any event if i < 0 (hw_trace_parse: a
 * trace has one at least), or NULL. */
static const struct hw_trace_line *first_mark(const struct hw_trace *t,
                                              int i)
{
	for (size_t k = 0; k < t->n; k++)
		if (t->l[k].kind == HW_REC_MARK && (i < 0 || t->l[k].event == i))
			return &t->l[k];
	return NULL;
}

/* The model for the trace: its arch and CPUs, its events (enabled and
 * mmapped at the start, as the recorder opens them), and the two facts
 * of the machine the first mark tells: whether the clock gives user time
 * (cap_user_time) and the PMU's counter width (0 without a PMU). */
static int build_model(const struct hw_trace *t, unsigned kernel,
                       struct sm_model **m, char *err, size_t n)
{
	struct sm_config *c = malloc(sizeof(*c)); /* sm_model_new copies it */
	uint64_t caps = 0, width = 48;
	const struct hw_trace_line *mark = first_mark(t, -1);

	if (!c)
		return snprintf(err, n, "out of memory"), -1;
	sm_config_default(c, t->arch);
	c->kernel = kernel;
	c->ncpus = t->ncpus >= 1 && t->ncpus <= SM_MAX_CPUS ? t->ncpus : 2;
	if (mark) {
		hw_trace_value(mark, "capabilities", &caps);
		hw_trace_value(mark, "pmc_width", &width);
	}
	c->stable = (caps >> SELFMON_CAP_USER_TIME) & 1;
	c->width = (unsigned)width;
	if (t->arch == SM_RISCV64)
		c->gp = 16; /* hpmcounter3..18, as QEMU's virt machine has */
	for (unsigned i = 0; i < t->nev; i++) {
		struct sm_event_cfg *e = &c->event[c->nevents++];
		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%s", t->ev[i]);
		e->type = type_of(t->ev[i], t->software[i]);
		e->counter = SM_AUTO;
		/* riscv64: the counter is the SBI firmware's choice, not the
		 * kernel's (pmu_sbi_ctr_get_idx() asks for any that fits with
		 * SBI_EXT_PMU_COUNTER_CFG_MATCH; OpenSBI 1.1 under QEMU 7.2 gave
		 * the highest free hpmcounter, 18 then 17, with exclude_kernel),
		 * so each hardware event's comes from its first mark */
		uint64_t idx = 0;
		const struct hw_trace_line *fm = first_mark(t, (int)i);
		if (t->arch == SM_RISCV64 && !t->software[i] && fm &&
		    hw_trace_value(fm, "index", &idx) && idx >= 4 && idx <= 19)
			e->counter = (int)idx - 1;
		e->enabled = e->mmap = e->user = true;
		e->rate = 1;
	}
	*m = sm_model_new(c, NULL, NULL, err, n);
	free(c);
	return *m ? 0 : -1;
}

struct checked {
	const char *name;
	size_t off;
};

static const struct checked checked[] = {
	{ "lock", offsetof(struct perf_event_mmap_page, lock) },
	{ "index", offsetof(struct perf_event_mmap_page, index) },
	{ "capabilities", offsetof(struct perf_event_mmap_page, capabilities) },
	{ "pmc_width", offsetof(struct perf_event_mmap_page, pmc_width) },
	{ "size", offsetof(struct perf_event_mmap_page, size) },
};

/* The last mark of event i at or before trace entry `upto`: the page as
 * the recorded thread read it before an action (the poller's own log can
 * lag the kernel's writes under load, so it is not compared).  The
 * comparison asks with `upto` never decreasing: the lines are scanned
 * once. */
static const struct hw_trace_line *last_page(struct cmp *c, int i,
                                             size_t upto)
{
	const struct hw_trace *t = &c->t;

	if (upto + 1 < c->mark_upto) { /* not the comparison's order: scan */
		for (size_t k = upto + 1; k-- > 0;)
			if (t->l[k].kind == HW_REC_MARK && t->l[k].event == i)
				return &t->l[k];
		return NULL;
	}
	for (; c->mark_upto <= upto && c->mark_upto < t->n; c->mark_upto++) {
		const struct hw_trace_line *l = &t->l[c->mark_upto];
		if (l->kind == HW_REC_MARK)
			c->last_mark[l->event] = (long)c->mark_upto;
	}
	return c->last_mark[i] >= 0 ? &t->l[c->last_mark[i]] : NULL;
}

/* The checked fields of event i's mark p against the model's page. */
static unsigned compare_fields(const struct cmp *c, const struct sm_model *m,
                               unsigned i, const struct hw_trace_line *p,
                               const char *after, FILE *out)
{
	unsigned diffs = 0;

	for (size_t k = 0; k < sizeof(checked) / sizeof(checked[0]); k++) {
		const struct selfmon_page_field *pf =
			selfmon_page_field_at((unsigned)checked[k].off);
		uint64_t rec, mod;
		if (!hw_trace_value(p, checked[k].name, &rec))
			continue;
		mod = selfmon_page_get(sm_model_page(m, (int)i), pf);
		if (rec != mod && ++diffs && out)
			fprintf(out, "  after %s: %s.%s recorded %" PRIu64 " (line "
			        "%u), model %" PRIu64 "\n", after, c->t.ev[i],
			        checked[k].name, rec, p->line, mod);
	}
	return diffs;
}

/* The page right after IOC_RESET: _perf_event_reset() reads the event
 * (prev_count becomes the counter's value), sets the count to 0 and
 * writes the page, so offset = 0 - prev_count with a counter in use
 * (perf_event_update_userpage()), 0 without one.  Without a counter
 * (software events, index 0) that is clock-free and must be equal.  With
 * one it is minus the counter's value at that instant, which the trace
 * cannot know (its clock is not the model's): the kernel programmed the
 * counter at its last start at minus the period left, at most half its
 * range below the wrap (armpmu_event_set_period(), riscv_pmu_event_set_
 * period(), x86_perf_event_set_period()), and it cannot have crossed the
 * wrap since without an overflow interrupt rewriting the page, so the
 * recorded and the model's values are both in that half and differ by
 * less than 2^(width - 1).  That catches a model with the wrong period,
 * width, sign or a 2^32 quirk, but not the count itself. */
static bool reset_offset_agrees(const struct hw_trace_line *p, int64_t rec,
                                int64_t mod)
{
	uint64_t index = 0, width = 0;

	hw_trace_value(p, "index", &index);
	hw_trace_value(p, "pmc_width", &width);
	if (!index || width < 2 || width > 64)
		return rec == mod;
	uint64_t d = rec > mod ? (uint64_t)rec - (uint64_t)mod
	                       : (uint64_t)mod - (uint64_t)rec;
	return d < (1ull << (width - 1));
}

static unsigned compare_at(struct cmp *c, const struct sm_model *m,
                           size_t upto, const char *after,
                           const bool after_reset[], FILE *out)
{
	unsigned diffs = 0;

	for (unsigned i = 0; i < c->t.nev; i++) {
		const struct hw_trace_line *p = last_page(c, (int)i, upto);
		uint64_t off;
		if (!p) {
			if (out)
				fprintf(out, "  after %s: %s has no recorded page\n", after,
				        c->t.ev[i]);
			diffs++;
			continue;
		}
		diffs += compare_fields(c, m, i, p, after, out);
		int64_t mod = sm_model_page(m, (int)i)->offset;
		if (after_reset[i] && hw_trace_value(p, "offset", &off) &&
		    !reset_offset_agrees(p, (int64_t)off, mod) && ++diffs && out)
			fprintf(out, "  after %s: %s.offset recorded %" PRId64 ", model %"
			        PRId64 "\n", after, c->t.ev[i], (int64_t)off, mod);
	}
	return diffs;
}

/* The thread's context switches between two actions, each a sched out
 * and in of its events: preemptions in the model, at most
 * SM_TRACE_MAX_PREEMPTIONS for the whole trace (then c->capped, the
 * message naming the switches line being replayed). */
static void apply_switches(struct cmp *c, struct sm_model *m, uint64_t n)
{
	struct sm_action a = { .kind = SM_ACT_PREEMPT, .event = SM_AUTO,
	                       .cpu = SM_AUTO, .counter = SM_AUTO, .cycles = 100 };
	char err[128];

	if (n > SM_TRACE_MAX_PREEMPTIONS - c->replayed) {
		c->capped = true;
		n = SM_TRACE_MAX_PREEMPTIONS - c->replayed;
	}
	c->replayed += n;
	for (uint64_t k = 0; k < n; k++)
		sm_model_apply(m, &a, err, sizeof(err));
}

/* Apply one recorded action to the model. */
static void apply_action(const struct hw_trace *t, struct sm_model *m,
                         const struct hw_trace_line *l, bool after_reset[])
{
	struct sm_action a = { .event = SM_AUTO, .cpu = SM_AUTO,
	                       .counter = SM_AUTO, .cycles = 1000 };
	char err[128];
	uint64_t v;

	for (unsigned i = 0; i < t->nev; i++)
		after_reset[i] = false;
	a.kind = (enum sm_action_kind)l->action;
	if (hw_trace_value(l, "cpu", &v))
		a.cpu = v < SM_MAX_CPUS ? (int)v : SM_MAX_CPUS;
	if (l->event >= 0) { /* hw_trace_parse: one of the trace's */
		a.event = l->event;
		if (a.kind == SM_ACT_RESET)
			after_reset[a.event] = true;
		sm_model_apply(m, &a, err, sizeof(err));
		return;
	}
	if (a.kind == SM_ACT_MIGRATE) {
		sm_model_apply(m, &a, err, sizeof(err));
		return;
	}
	for (unsigned i = 0; i < t->nev; i++) { /* read, disable, enable: all */
		a.event = (int)i;
		sm_model_apply(m, &a, err, sizeof(err));
	}
}

/* Switches counted during an action (beyond a migration's own) may have
 * come before or after its effect inside the syscall; the trace cannot
 * tell. Each split of them is a candidate model, and the next mark picks
 * the first that agrees with it (else the first: its differences are
 * printed). */
#define MAX_CAND 4

static void split_switches(struct cmp *c, const struct sm_model *pre,
                           const struct hw_trace_line *action, uint64_t extra,
                           struct sm_model *cand[], unsigned *ncand)
{
	bool scratch[MAX_EV];

	*ncand = 1; /* cand[0]: the action first, then every switch */
	for (uint64_t s = 1; s <= extra && *ncand < MAX_CAND; s++) {
		struct sm_model *m = cand[(*ncand)++];
		sm_model_copy(m, pre);
		apply_switches(c, m, s);
		apply_action(&c->t, m, action, scratch);
		apply_switches(c, m, extra - s);
	}
}

/* The state of a replay between two lines. */
struct replay {
	struct sm_model *cand[MAX_CAND], *pre; /* of one configuration */
	unsigned ncand, diffs, actions;
	bool after_reset[MAX_EV];
	uint64_t since;          /* the switch count last seen */
	const struct hw_trace_line *last_action;
	char label[64];          /* what the next comparison comes after */
};

/* A `switches after` line: the switches during the last action. */
static void switches_after(struct cmp *c, struct replay *r, uint64_t n)
{
	/* a migration is one switch itself */
	uint64_t own = r->last_action && r->last_action->action == SM_ACT_MIGRATE;
	uint64_t extra = n > r->since + own ? n - r->since - own : 0;

	apply_switches(c, r->cand[0], extra);
	if (extra && r->last_action) {
		split_switches(c, r->pre, r->last_action, extra, r->cand,
		               &r->ncand);
		for (unsigned i = 0; i < c->t.nev; i++)
			r->after_reset[i] = false;
	}
}

/* A `switches before` line at trace entry k: the switches since, the
 * candidate that agrees with the mark, the comparison, then the next
 * action.  False when no action follows. */
static bool switches_before(struct cmp *c, struct replay *r, size_t k,
                            uint64_t n, FILE *out)
{
	struct sm_model *m = r->cand[0];
	unsigned best = 0;

	/* a switch rewrote the page after a reset: its offset moved on */
	for (unsigned i = 0; n > r->since && i < c->t.nev; i++)
		r->after_reset[i] = false;
	for (unsigned j = 0; j < r->ncand; j++)
		apply_switches(c, r->cand[j], n > r->since ? n - r->since : 0);
	for (unsigned j = r->ncand; j-- > 1;)
		if (!compare_at(c, r->cand[j], k, r->label, r->after_reset, NULL))
			best = j;
	if (best && compare_at(c, m, k, r->label, r->after_reset, NULL))
		sm_model_copy(m, r->cand[best]);
	r->ncand = 1;
	size_t a = c->next_action[k];
	r->diffs += compare_at(c, m, k, r->label, r->after_reset, out);
	if (a >= c->t.n)
		return false;
	sm_model_copy(r->pre, m);
	apply_action(&c->t, m, &c->t.l[a], r->after_reset);
	r->last_action = &c->t.l[a];
	snprintf(r->label, sizeof(r->label), "%s (line %u)",
	         sm_action_name((enum sm_action_kind)c->t.l[a].action),
	         c->t.l[a].line);
	r->actions++;
	return true;
}

static void replay(struct cmp *c, struct replay *r, FILE *out)
{
	for (size_t k = 0; k < c->t.n && !c->capped; k++) {
		const struct hw_trace_line *l = &c->t.l[k];
		uint64_t n;
		if (l->kind != HW_REC_SWITCHES || !hw_trace_value(l, "count", &n))
			continue;
		c->cur = l;
		if (l->sw == HW_SW_AFTER)
			switches_after(c, r, n);
		else if (l->sw == HW_SW_BEFORE && !switches_before(c, r, k, n, out))
			break;
		r->since = n; /* open: the baseline */
	}
}

/* The first action after each line, found once. */
static int index_actions(struct cmp *c)
{
	c->next_action = malloc((c->t.n + 1) * sizeof(size_t));
	if (!c->next_action)
		return -1;
	c->next_action[c->t.n] = c->t.n;
	for (size_t k = c->t.n; k-- > 0;)
		c->next_action[k] = c->t.l[k].kind == HW_REC_ACTION
		                    ? k : c->next_action[k + 1];
	for (unsigned i = 0; i < MAX_EV; i++)
		c->last_mark[i] = -1;
	return 0;
}

static int setup(struct cmp *c, struct replay *r, const char *name,
                 const char *text, unsigned kernel, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	memset(r, 0, sizeof(*r));
	r->ncand = 1;
	snprintf(r->label, sizeof(r->label), "mmap");
	if (hw_trace_parse(name, text, &c->t, err, errlen) < 0)
		return -1;
	if (index_actions(c) < 0) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	if (sm_kernel_check_arch(kernel, c->t.arch, c->err, sizeof(c->err)) < 0) {
		snprintf(err, errlen, "%s: %s", name, c->err);
		return -1;
	}
	if (build_model(&c->t, kernel, &r->cand[0], c->err, sizeof(c->err)) < 0) {
		const struct hw_trace_line *mark = first_mark(&c->t, -1);
		snprintf(err, errlen, "%s:%u:1: %s", name, mark ? mark->line : 1,
		         c->err);
		return -1;
	}
	/* the others are copies of the first: built alike, state copied */
	r->pre = sm_model_new(sm_model_config(r->cand[0]), NULL, NULL, c->err,
	                      sizeof(c->err));
	for (unsigned j = 1; r->pre && j < MAX_CAND; j++)
		if (!(r->cand[j] = sm_model_new(sm_model_config(r->cand[0]), NULL, NULL,
		                                c->err, sizeof(c->err))))
			break;
	if (!r->pre || !r->cand[MAX_CAND - 1]) {
		snprintf(err, errlen, "%s: %s", name, c->err);
		return -1;
	}
	return 0;
}

/* hw_compare_text() on its state. */
static int compare(struct cmp *c, struct replay *r, const char *name,
                   const char *text, unsigned kernel, FILE *out, char *err,
                   size_t errlen)
{
	int rc = setup(c, r, name, text, kernel, err, errlen);
	char kn[256];

	if (rc == 0 && out)
		fprintf(out, "comparing %s: %zu records, %u events, %s%s%s\n", name,
		        c->t.n, c->t.nev, sm_arch_name(c->t.arch),
		        kernel ? ", model as kernel " : "",
		        kernel ? sm_kernel_text(kernel, kn, sizeof(kn)) : "");
	if (rc == 0)
		replay(c, r, out);
	if (rc == 0 && c->capped) { /* the line replayed when the cap was hit */
		snprintf(err, errlen, "%s:%u:%u: the trace replays more than the "
		         "cap of %d context switches", name, c->cur->line,
		         c->cur->col, SM_TRACE_MAX_PREEMPTIONS);
		rc = -1;
	}
	hw_trace_free(&c->t);
	free(c->next_action);
	for (unsigned j = 0; j < MAX_CAND; j++)
		sm_model_free(r->cand[j]);
	sm_model_free(r->pre);
	if (rc < 0)
		return -1;
	if (out)
		fprintf(out, "%u actions replayed: %s\n", r->actions, r->diffs
		        ? "the model differs from the recorded pages" :
		        "the model agrees with every recorded page");
	return r->diffs ? 1 : 0;
}

int hw_compare_text(const char *name, const char *text, unsigned kernel,
                    FILE *out, char *err, size_t errlen)
{
	struct cmp *c = malloc(sizeof(*c));
	struct replay *r = malloc(sizeof(*r));
	int rc = -1;

	if (c && r)
		rc = compare(c, r, name, text, kernel, out, err, errlen);
	else
		snprintf(err, errlen, "%s: out of memory", name);
	free(c);
	free(r);
	return rc;
}
