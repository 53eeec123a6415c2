/*
 * hw_trace.c — the hw trace format (see hw_trace.h): each record's text,
 * the file's header and order, and the parser.
 *
 * Owns: the syntax of a trace and every check on it as input: its line
 * format (one struct sm_line_format read by util/lines.c: a line of at
 * most HW_TRACE_LINE_MAX - 1 printable bytes, fields apart by spaces,
 * '#' first for a comment line), a known directive or
 * record, the keys of its kind each at most once with a well-formed
 * number, event names of the trace's own events, actions the model knows,
 * at most SM_TRACE_MAX_ACTIONS actions and SM_TRACE_MAX_SWITCHES switches
 * added by one line.  Errors are one line "NAME:LINE:COL: message", from
 * the same line reader as the scenario parser's (model/scenario.c).
 * Must not touch the model's state or real events: the recorder and the
 * comparison do.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw_trace.h"
#include "input.h"
#include "lines.h"

/* ---- writing ---------------------------------------------------------- */

char *hw_trace_page_text(const char *kind, const char *event,
                         const struct perf_event_mmap_page *p)
{
	char *s;

	if (asprintf(&s, "%s %s lock=%u index=%u offset=%" PRId64
	             " time_enabled=%" PRIu64 " time_running=%" PRIu64
	             " capabilities=%" PRIu64 " pmc_width=%u time_shift=%u"
	             " time_mult=%u time_offset=%" PRIu64 " time_zero=%" PRIu64
	             " size=%u time_cycles=%" PRIu64 " time_mask=%" PRIu64,
	             kind, event, p->lock, p->index, (int64_t)p->offset,
	             (uint64_t)p->time_enabled, (uint64_t)p->time_running,
	             (uint64_t)p->capabilities, p->pmc_width, p->time_shift,
	             p->time_mult, (uint64_t)p->time_offset,
	             (uint64_t)p->time_zero, p->size, (uint64_t)p->time_cycles,
	             (uint64_t)p->time_mask) < 0)
		return NULL;
	return s;
}

char *hw_trace_switches_text(const char *when, long count)
{
	char *s;
	return asprintf(&s, "switches %s count=%ld", when, count) < 0 ? NULL : s;
}

char *hw_trace_action_text(const char *what, const char *event, int cpu)
{
	char *s;
	int n = event ? asprintf(&s, "action %s event=%s", what, event)
	        : cpu >= 0 ? asprintf(&s, "action %s cpu=%d", what, cpu)
	                   : asprintf(&s, "action %s", what);
	return n < 0 ? NULL : s;
}

char *hw_trace_read_text(const char *event, const uint64_t v[3])
{
	char *s;
	return asprintf(&s, "read %s count=%" PRIu64 " enabled=%" PRIu64
	                " running=%" PRIu64, event, v[0], v[1], v[2]) < 0 ? NULL
	                                                                 : s;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct hw_trace_rec *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void hw_trace_write(FILE *f, const char *path, const struct hw_event *ev,
                    unsigned nev, struct hw_trace_rec *r, size_t n)
{
	qsort(r, n, sizeof(r[0]), cmp_rec);
	fprintf(f, "# selfmon hw trace: compare with 'selfmon model --compare "
	        "%s'\narch %s\ncpus %ld\n", path, hw_arch_name(),
	        sysconf(_SC_NPROCESSORS_ONLN));
	for (unsigned i = 0; i < nev; i++)
		fprintf(f, "event %s%s\n", ev[i].name,
		        ev[i].software ? " software" : "");
	for (size_t k = 0; k < n; k++)
		fprintf(f, "at %" PRIu64 " %s\n", r[k].t, r[k].text);
}

/* ---- reading: lines and tokens ---------------------------------------- */

#define EVENT_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"

/* Lines and tokens (lines.h): printable, fields apart by spaces, a line
 * starting with '#' a comment. */
static const struct sm_line_format trace_lines = {
	.max_len = HW_TRACE_LINE_MAX - 1, .blanks = " ",
	.comment = SM_COMMENT_LINE, .controls_noun = "trace", .max_tokens = 24,
};

struct parser {
	struct sm_lines in;          /* the text, its current line and tokens */
	struct hw_trace *t;
	size_t cap;                  /* of t->l */
	unsigned actions;
	bool have_arch, have_cpus, have_count;
	uint64_t last_count;         /* of the last `switches` line */
};

/* "NAME:LINE:COL: message" of the current line; -1. */
#define fail(p, col, ...) sm_line_fail(&(p)->in, (col), __VA_ARGS__)

/* Decimal or 0x-hex, 64 bits, nothing else; a '-' first only if
 * `negative_ok` (two's complement). */
static int number(struct parser *p, const char *s, unsigned col,
                  bool negative_ok, const char *what, uint64_t *out)
{
	bool neg = negative_ok && *s == '-';
	uint64_t v;
	int rc = sm_parse_u64(s + neg, &v);

	if (rc == -1)
		return fail(p, col, "bad number '%s' for %s", s, what);
	if (rc == -2)
		return fail(p, col, "%s out of range (at most 64 bits)", what);
	*out = neg ? (uint64_t)0 - v : v;
	return 0;
}

/* ---- reading: directives ---------------------------------------------- */

/* Positional token i, or "missing WHAT"; an extra token is "unexpected"
 * (lines.h). */
#define positional(p, i, what) sm_line_word(&(p)->in, (i), (what))
#define no_more(p, i) sm_line_no_more(&(p)->in, (i))

static int d_arch(struct parser *p)
{
	struct sm_tok *a = positional(p, 1, "arch");
	if (!a)
		return -1;
	int arch = sm_arch_from_name(a->s);
	if (p->have_arch)
		return fail(p, p->in.tok[0].col, "duplicate 'arch'");
	if (arch < 0)
		return fail(p, a->col, "unknown arch '%s' (expected x86_64, arm64 "
		            "or riscv64)", a->s);
	p->t->arch = (enum sm_arch)arch;
	p->have_arch = true;
	return no_more(p, 2);
}

/* Any count is taken (the comparison models at most SM_MAX_CPUS). */
static int d_cpus(struct parser *p)
{
	struct sm_tok *c = positional(p, 1, "number of CPUs");
	uint64_t v;
	if (!c || number(p, c->s, c->col, false, "cpus", &v) < 0)
		return -1;
	if (p->have_cpus)
		return fail(p, p->in.tok[0].col, "duplicate 'cpus'");
	if (v > UINT32_MAX)
		return fail(p, c->col, "cpus out of range (at most %u)", UINT32_MAX);
	p->t->ncpus = (unsigned)v;
	p->have_cpus = true;
	return no_more(p, 2);
}

bool hw_trace_name_ok(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n < SM_NAME_MAX && strspn(s, EVENT_CHARS) == n;
}

static int d_event(struct parser *p)
{
	struct hw_trace *t = p->t;
	struct sm_tok *e = positional(p, 1, "event name");
	if (!e)
		return -1;
	if (t->nev == HW_TRACE_MAX_EVENTS)
		return fail(p, p->in.tok[0].col, "too many events (max %d)",
		            HW_TRACE_MAX_EVENTS);
	if (!hw_trace_name_ok(e->s))
		return fail(p, e->col, "bad event name '%s' (1 to %d of "
		            "A-Z a-z 0-9 _ . -)", e->s, SM_NAME_MAX - 1);
	if (hw_trace_event(t, e->s) >= 0)
		return fail(p, e->col, "duplicate event '%s'", e->s);
	bool sw = p->in.ntok > 2 && !strcmp(p->in.tok[2].s, "software");
	if (p->in.ntok > 2 && !sw)
		return fail(p, p->in.tok[2].col, "unexpected '%s' (expected "
		            "'software' or nothing)", p->in.tok[2].s);
	snprintf(t->ev[t->nev], SM_NAME_MAX, "%s", e->s);
	t->software[t->nev++] = sw;
	return no_more(p, 2 + sw);
}

/* ---- reading: records ------------------------------------------------- */

/* A kind's keys; negative: a '-' first is two's complement. */
struct hwkey {
	const char *name;
	bool negative;
};

static const struct hwkey page_keys[] = {
	{ "lock", false }, { "index", false }, { "offset", true },
	{ "time_enabled", false }, { "time_running", false },
	{ "capabilities", false }, { "pmc_width", false },
	{ "time_shift", false }, { "time_mult", false },
	{ "time_offset", false }, { "time_zero", false }, { "size", false },
	{ "time_cycles", false }, { "time_mask", false },
};
static const struct hwkey switches_keys[] = { { "count", false } };
static const struct hwkey action_keys[] = {
	{ "event", false }, { "cpu", false },
};
static const struct hwkey read_keys[] = {
	{ "count", false }, { "enabled", false }, { "running", false },
};
_Static_assert(sizeof(page_keys) / sizeof(page_keys[0]) <= HW_TRACE_MAX_KEYS,
               "a line holds every key of its kind");

#define KIND(n, k) { n, k, sizeof(k) / sizeof((k)[0]) }
static const struct kind {
	const char *name;
	const struct hwkey *keys;
	size_t nkeys;
} kinds[] = {
	[HW_REC_PAGE] = KIND("page", page_keys),
	[HW_REC_MARK] = KIND("mark", page_keys),
	[HW_REC_SWITCHES] = KIND("switches", switches_keys),
	[HW_REC_ACTION] = KIND("action", action_keys),
	[HW_REC_READ] = KIND("read", read_keys),
};

static struct sm_keys kind_keys(enum hw_rec_kind kind)
{
	const struct kind *k = &kinds[kind];
	return (struct sm_keys){ &k->keys[0].name, k->nkeys, sizeof(k->keys[0]) };
}

/* An action's event=: one of the trace's events. */
static int action_event(struct parser *p, struct hw_trace_line *l,
                        const char *v, unsigned col)
{
	l->event = hw_trace_event(p->t, v);
	if (l->event < 0)
		return fail(p, col, "the action names no event of the trace");
	return 0;
}

static int parse_key(struct parser *p, struct hw_trace_line *l,
                     struct sm_tok *t)
{
	struct sm_tok v;
	int k = sm_line_key(&p->in, t, kind_keys(l->kind), kinds[l->kind].name,
	                    &v);

	if (k < 0)
		return -1;
	l->have |= 1u << k;
	if (l->kind == HW_REC_SWITCHES)
		l->col = v.col;
	if (l->kind == HW_REC_ACTION && k == 0)
		return action_event(p, l, v.s, v.col);
	return number(p, v.s, v.col, kinds[l->kind].keys[k].negative, t->s,
	              &l->v[k]);
}

/* A switches line's count: at most SM_TRACE_MAX_SWITCHES more than the
 * last one. */
static int check_count(struct parser *p, struct hw_trace_line *l)
{
	if (!(l->have & 1))
		return 0;
	uint64_t n = l->v[0], since = p->have_count ? p->last_count : 0;
	p->have_count = true;
	p->last_count = n;
	if (n > since && n - since > SM_TRACE_MAX_SWITCHES)
		return fail(p, l->col, "%" PRIu64 " context switches since the "
		            "count before, over the cap of %d per trace line",
		            n - since, SM_TRACE_MAX_SWITCHES);
	return 0;
}

/* What follows the kind: the event, the action or the switches' when. */
static int record_subject(struct parser *p, struct hw_trace_line *l,
                          const struct sm_tok *w)
{
	static const char *const when[] = { "open", "before", "after" };
	int i;

	switch (l->kind) {
	case HW_REC_SWITCHES:
		if ((i = sm_keys_find(SM_NAMES(when), w->s)) >= 0)
			return l->sw = (enum hw_switches)i, 0;
		return fail(p, w->col, "bad value '%s' for switches (expected "
		            "open, before or after)", w->s);
	case HW_REC_ACTION:
		if ((l->action = sm_action_from_name(w->s)) < 0)
			return fail(p, w->col, "unknown action '%s'", w->s);
		if (++p->actions > SM_TRACE_MAX_ACTIONS)
			return fail(p, w->col, "more actions than the cap of %d per "
			            "trace", SM_TRACE_MAX_ACTIONS);
		return 0;
	default:
		if ((l->event = hw_trace_event(p->t, w->s)) < 0)
			return fail(p, w->col, "unknown event '%s' (not one of the "
			            "trace's 'event' lines)", w->s);
		return 0;
	}
}

static struct hw_trace_line *new_line(struct parser *p)
{
	struct hw_trace *t = p->t;

	if (t->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 256;
		struct hw_trace_line *l = realloc(t->l, cap * sizeof(*l));
		if (!l)
			return fail(p, 1, "out of memory"), NULL;
		t->l = l;
		p->cap = cap;
	}
	struct hw_trace_line *l = &t->l[t->n];
	memset(l, 0, sizeof(*l));
	l->line = p->in.lineno;
	l->event = -1;
	l->col = p->in.endcol;
	return l;
}

static int d_at(struct parser *p)
{
	struct sm_tok *tt = positional(p, 1, "time"), *k, *w;
	struct hw_trace_line *l = new_line(p);
	int kind;

	if (!l || !tt || number(p, tt->s, tt->col, false, "time", &l->t) < 0 ||
	    !(k = positional(p, 2, "record kind")))
		return -1;
	if ((kind = sm_keys_find(SM_KEYS(kinds, name), k->s)) < 0)
		return fail(p, k->col, "unknown record '%s' (expected page, mark, "
		            "switches, action or read)", k->s);
	l->kind = (enum hw_rec_kind)kind;
	if (!(w = positional(p, 3, kind == HW_REC_ACTION ? "action"
	                           : kind == HW_REC_SWITCHES ? "when" : "event"))
	    || record_subject(p, l, w) < 0)
		return -1;
	for (unsigned i = 4; i < p->in.ntok; i++)
		if (parse_key(p, l, &p->in.tok[i]) < 0)
			return -1;
	if (kind == HW_REC_SWITCHES && check_count(p, l) < 0)
		return -1;
	p->t->n++;
	return 0;
}

/* The current line, which has tokens. */
static int parse_line(struct parser *p)
{
	static const struct { const char *name; int (*fn)(struct parser *); }
	directives[] = { { "arch", d_arch }, { "cpus", d_cpus },
	                 { "event", d_event }, { "at", d_at } };
	int d = sm_keys_find(SM_KEYS(directives, name), p->in.tok[0].s);

	if (d >= 0)
		return directives[d].fn(p);
	return fail(p, p->in.tok[0].col, "not a selfmon hw trace line (unknown "
	            "directive '%s')", p->in.tok[0].s);
}

/* The trace as a whole: events, and a mark to compare with. */
static int finish(struct parser *p)
{
	struct hw_trace *t = p->t;
	size_t marks = 0;

	for (size_t k = 0; k < t->n; k++)
		marks += t->l[k].kind == HW_REC_MARK;
	if (t->nev && marks)
		return 0;
	return sm_lines_fail(&p->in, "%s", t->nev
	         ? "no marks (the pages as the recorded thread read them): "
	           "record it again with 'selfmon hw record'"
	         : "no events in the trace");
}

int hw_trace_parse(const char *name, const char *text, struct hw_trace *t,
                   char *err, size_t errlen)
{
	struct parser p = { .t = t };
	int rc;

	memset(t, 0, sizeof(*t));
	t->name = name;
	sm_lines_init(&p.in, &trace_lines, name, text, err, errlen);
	while ((rc = sm_lines_next(&p.in)) == 1 && parse_line(&p) == 0)
		;
	sm_lines_free(&p.in);
	if (rc != 0 || finish(&p) < 0) {
		hw_trace_free(t);
		return -1;
	}
	return 0;
}

void hw_trace_free(struct hw_trace *t)
{
	free(t->l);
	t->l = NULL;
	t->n = 0;
}

bool hw_trace_value(const struct hw_trace_line *l, const char *key,
                    uint64_t *v)
{
	int k = sm_keys_find(kind_keys(l->kind), key);
	if (k < 0 || !(l->have & (1u << k)))
		return false;
	*v = l->v[k];
	return true;
}

int hw_trace_event(const struct hw_trace *t, const char *name)
{
	for (unsigned i = 0; i < t->nev; i++)
		if (!strcmp(t->ev[i], name))
			return (int)i;
	return -1;
}
