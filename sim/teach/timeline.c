/*
 * timeline.c — the timeline picture (see timeline.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "run.h"
#include "notation.h"
#include "markup.h"
#include "timeline.h"

#define NS 600          /* truth samples over the scenario */
#define MAXU 2048       /* page updates drawn */
#define MAXTRAP 512     /* observation points drawn */
#define W 1000          /* picture width */
#define LEFT 190        /* lane labels and value axes */
#define RIGHT 970       /* end of the plotting area */
#define CW 6.8          /* width of a character at 12 px, generously */
#define SW 6.2          /* at 11 px */

struct update {
	uint64_t at;
	int ev;
	uint32_t index;
	enum sm_action_kind why;
};

struct tl {
	const struct sm_scenario *s;
	const struct sm_timeline_opts *o;
	uint64_t end;
	struct sm_truth truth[NS + 1];
	uint64_t t[NS + 1];
	struct update u[MAXU];
	unsigned nu;
	/* the reader's call */
	bool have_call;
	uint64_t call_at, steps;
	uint64_t trap_step[MAXTRAP];
	unsigned ntrap;
	struct sm_truth call_truth[NS]; /* the truth over the call */
	int which;                /* the value zoomed: 0 count, 1 enabled, 2
	                           * running (the first found wrong) */
	int shown;                /* the returned value drawn over it: which,
	                           * or running over enabled's truth when
	                           * running > enabled */
	unsigned ncall;
	struct sm_result res;
	const struct sm_reader *reader;
	const struct sm_schedule *sched;
	/* drawing */
	FILE *f;
	double y;                 /* next free row */
	unsigned causes;          /* 1 << kind of every update drawn */
};

static void on_update(void *ctx, const void *model, int ev,
                      enum sm_action_kind why)
{
	struct tl *p = ctx;
	const struct sm_model *m = model;
	struct perf_event_mmap_page pc;

	if (p->nu == MAXU)
		return;
	sm_model_page_after(m, ev, &pc);
	p->u[p->nu++] = (struct update){ m->k.now - m->cfg->start, ev, pc.index,
	                                 why };
}

/* The model from 0 to end: timed actions at their cycle, samples. */
static int sample(struct tl *p, char *err, size_t n)
{
	const struct sm_scenario *s = p->s;
	struct sm_model *m = sm_model_new(&s->cfg, on_update, p, err, n);
	unsigned k = 0;
	int rc = 0;

	if (!m)
		return -1;
	for (unsigned i = 0; !rc && i <= NS; i++) {
		uint64_t t = (uint64_t)((unsigned __int128)p->end * i / NS);
		if (sm_scenario_play(m, s, &k, t, err, n) < 0)
			rc = -1;
		p->t[i] = m->k.now - s->cfg.start;
		sm_model_truth(m, 0, &p->truth[i]);
	}
	if (!rc && m->k.capped) { /* loading checked the scenario: last resort */
		snprintf(err, n, "the model hit its cap of model events per run");
		rc = -1;
	}
	sm_model_free(m);
	return rc;
}

/* One call of the reader at check_at, with the schedule: its
 * observation points and the truth over it. */
static int call_reader(struct tl *p, const struct sm_timeline_call *c,
                       char *err, size_t n)
{
	struct sm_session *s = sm_replay(p->s, c->reader, c->engine, c->sched,
	                                 err, n);

	if (!s)
		return -1;
	p->have_call = true;
	p->reader = c->reader;
	p->sched = c->sched;
	p->call_at = p->s->check_at;
	p->steps = s->res.steps;
	p->res = s->res;
	for (unsigned i = 0; i < s->run.npoints && p->ntrap < MAXTRAP; i++)
		p->trap_step[p->ntrap++] = s->points[i];
	p->ncall = s->run.nsamples < NS ? s->run.nsamples : NS;
	for (unsigned i = 0; i < p->ncall; i++) {
		const struct sm_truth *x = &s->samples[(uint64_t)i *
		                                        s->run.nsamples / p->ncall];
		p->call_truth[i] = (struct sm_truth){ x->count, x->enabled,
		                                      x->running, 0, 0 };
	}
	sm_timeline_zoom(&p->res, &p->which, &p->shown);
	sm_session_free(s);
	return 0;
}

void sm_timeline_zoom(const struct sm_result *r, int *curve, int *shown)
{
	*curve = *shown = 0;
	if (r->verdict != SM_V_WRONG_VALUE || !r->nwrong)
		return;
	enum sm_wrong_field f = r->wrong[0].field;
	*curve = f == SM_WF_ENABLED || f == SM_WF_RELATION ? 1
	         : f == SM_WF_RUNNING ? 2 : 0;
	*shown = f == SM_WF_RELATION ? 2 : *curve;
}

/* ---- text ----------------------------------------------------------- */

/* size 12 unless small (11). */
static void text(FILE *f, double x, double y, const char *anchor,
                 const char *color, bool small, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"%s>",
	        x, y, anchor, color, small ? " font-size=\"11\"" : "");
	sm_xml_put(f, s);
	fputs("</text>\n", f);
}

/* s in lines of at most width px from (x, y), 15 px apart; the lines. */
static unsigned wrap(FILE *f, double x, double y, double width,
                     const char *color, const char *s)
{
	size_t max = (size_t)(width / CW);
	unsigned lines = 0;
	char line[512];

	while (*s) {
		size_t len = strlen(s), cut = len;
		if (len > max) {
			for (cut = max; cut > 0 && s[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = max;
		}
		snprintf(line, sizeof(line), "%.*s", (int)(cut < 511 ? cut : 511), s);
		text(f, x, y + 15 * lines++, "start", color, false, line);
		s += cut;
		while (*s == ' ')
			s++;
	}
	return lines;
}

/* 1234567 as "1,234,567". */
static void grouped(uint64_t v, char *buf, size_t n)
{
	char digits[32];
	size_t len = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, v), o = 0;

	for (size_t i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* A tick spacing of 1, 2 or 5 times a power of ten: at most max ticks. */
static uint64_t ticks(uint64_t range, uint64_t max)
{
	for (uint64_t p = 1;; p *= 10) {
		if (range / p <= max)
			return p;
		if (range / (2 * p) <= max)
			return 2 * p;
		if (range / (5 * p) <= max)
			return 5 * p;
		if (p > UINT64_MAX / 100)
			return UINT64_MAX;
	}
}

/* ---- scales --------------------------------------------------------- */

static double xof(const struct tl *p, uint64_t t)
{
	return LEFT + (double)(RIGHT - LEFT) * (double)t /
	              (double)(p->end ? p->end : 1);
}

/* A value axis at LEFT for [0, hi] over the lane [y0, y0 + h], with
 * grid lines; unit after the top label. */
static void value_axis(FILE *f, double y0, double h, uint64_t lo,
                       uint64_t hi, const char *unit)
{
	uint64_t st = ticks(hi - lo, 4);
	char buf[48], num[32];

	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#444\"/>\n", LEFT, y0, LEFT, y0 + h);
	for (uint64_t v = lo; v <= hi && v >= lo; v += st) {
		double y = y0 + h - h * (double)(v - lo) / (double)(hi - lo);
		grouped(v, num, sizeof(num));
		snprintf(buf, sizeof(buf), "%s%s", num,
		         v + st > hi || v + st < v ? unit : "");
		text(f, LEFT - 6, y + 4, "end", "#444", true, buf);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		        "stroke=\"#eee\"/>\n", LEFT, y, RIGHT, y);
		if (v > UINT64_MAX - st)
			break;
	}
}

/* The lane's name at the left, on one or two lines. */
static void lane_label(FILE *f, double y, const char *l1, const char *l2)
{
	text(f, 8, y, "start", "#000", false, l1);
	if (l2)
		text(f, 8, y + 14, "start", "#555", true, l2);
}

/* ---- lanes ---------------------------------------------------------- */

static const char *const action_color[SM_NACTIONS] = {
	[SM_ACT_MMAP] = "#555", [SM_ACT_ENABLE] = "#2a7",
	[SM_ACT_DISABLE] = "#a52", [SM_ACT_ROTATE_OUT] = "#c60",
	[SM_ACT_ROTATE_IN] = "#06c", [SM_ACT_ROTATE] = "#80c",
	[SM_ACT_OVERFLOW] = "#d00", [SM_ACT_PREEMPT] = "#888",
	[SM_ACT_MIGRATE] = "#0aa", [SM_ACT_RESET] = "#e0a",
	[SM_ACT_STALL] = "#999", [SM_ACT_PERIOD] = "#770",
	[SM_ACT_CLOCK_EPOCH] = "#470", [SM_ACT_READ] = "#333",
	[SM_ACT_REFRESH] = "#275",
	[SM_ACT_TICK] = "#5a5",
	[SM_ACT_MUNMAP] = "#b40",
};

static const char *const names[3] = { "count", "enabled", "running" };

#define C_COUNT "#1f77b4"
#define C_ENABLED "#2ca02c"
#define C_RUNNING "#ff7f0e"

static uint64_t truth_of(const struct sm_truth *t, int which)
{
	return which == 0 ? t->count : which == 1 ? t->enabled : t->running;
}

static void curve(struct tl *p, int which, double y0, double h, uint64_t hi,
                  const char *color, int width)
{
	fprintf(p->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" "
	        "points=\"", color, width);
	for (unsigned i = 0; i <= NS; i++)
		fprintf(p->f, "%.1f,%.1f ", xof(p, p->t[i]), y0 + h - h *
		        (double)truth_of(&p->truth[i], which) / (double)hi);
	fputs("\"/>\n", p->f);
}

static uint64_t highest(const struct tl *p, int which)
{
	uint64_t hi = 0;
	for (unsigned i = 0; i <= NS; i++)
		if (truth_of(&p->truth[i], which) > hi)
			hi = truth_of(&p->truth[i], which);
	return hi;
}

/* The true count, then enabled and running on one scale. */
static void truth_lanes(struct tl *p)
{
	double h = 80;
	uint64_t hi = highest(p, 0), st;

	p->y += 10;
	st = ticks(hi ? hi : 1, 4);
	hi = (hi / st + (hi % st != 0)) * st;
	hi = hi ? hi : 1;
	lane_label(p->f, p->y + 30, "true count", "events counted");
	value_axis(p->f, p->y, h, 0, hi, "");
	curve(p, 0, p->y, h, hi, C_COUNT, 2);
	p->y += h + 30;
	hi = highest(p, 1) > highest(p, 2) ? highest(p, 1) : highest(p, 2);
	st = ticks(hi ? hi : 1, 4);
	hi = (hi / st + (hi % st != 0)) * st;
	hi = hi ? hi : 1;
	lane_label(p->f, p->y + 30, "enabled, running", "time, ns (as read(2))");
	value_axis(p->f, p->y, h, 0, hi, " ns");
	curve(p, 1, p->y, h, hi, C_ENABLED, 5); /* wide: running on it */
	curve(p, 2, p->y, h, hi, C_RUNNING, 2);
	p->y += h + 24;
}

/* One stretch of an event's index: a bar, named when it fits. */
static void index_bar(struct tl *p, uint32_t index, uint64_t from,
                      uint64_t to, double y)
{
	char hex[24], name[80], both[120];
	double x0 = xof(p, from), x1 = xof(p, to);
	enum sm_arch a = p->s->cfg.arch;

	sm_index_short(a, index, hex, sizeof(hex));
	sm_index_counter(a, index, name, sizeof(name));
	snprintf(both, sizeof(both), "index %s: %s", hex, name);
	fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" "
	        "fill=\"%s\" opacity=\"0.55\"><title>", x0, y, x1 - x0 + 0.5,
	        index ? "#6a6" : "#ccc");
	sm_xml_put(p->f, both);
	fputs("</title></rect>\n", p->f);
	char mid[100]; /* without the parenthesis: "1: general counter 0" */
	int cut = (int)strcspn(name, "(");
	while (cut > 0 && name[cut - 1] == ' ')
		cut--;
	snprintf(mid, sizeof(mid), "%s: %.*s", hex, cut, name);
	const char *label = x1 - x0 > strlen(both) * SW + 8 ? both
	                    : x1 - x0 > strlen(mid) * SW + 8 ? mid
	                    : x1 - x0 > strlen(hex) * SW + 8 ? hex : NULL;
	if (label)
		text(p->f, x0 + 4, y + 11, "start", "#000", true, label);
}

static void index_lane(struct tl *p, unsigned e)
{
	uint32_t cur = 0;
	uint64_t from = 0;
	char label[80];

	snprintf(label, sizeof(label), "%s", p->s->cfg.event[e].name);
	lane_label(p->f, p->y + 11, label, "page index");
	for (unsigned i = 0; i <= p->nu; i++) {
		bool last = i == p->nu;
		if (!last && p->u[i].ev != (int)e)
			continue;
		uint64_t at = last ? p->end : p->u[i].at;
		if (at > from || (last && at == from && from < p->end))
			index_bar(p, cur, from, at, p->y);
		if (last)
			break;
		p->causes |= 1u << p->u[i].why;
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-width=\"2\"><title>page update: %s"
		        "</title></line>\n", xof(p, at), p->y - 4, xof(p, at),
		        p->y + 18, action_color[p->u[i].why],
		        sm_action_name(p->u[i].why));
		cur = p->u[i].index;
		from = at;
	}
	p->y += 34;
}

/* A named mark in the kernel-actions lane, its label in the first of
 * four rows where it fits (rowend: where each row is taken up to). */
static void action_mark(struct tl *p, double x, enum sm_action_kind k,
                        const char *suffix, double rowend[4], double top)
{
	char label[64];
	snprintf(label, sizeof(label), "%s%s", sm_action_name(k), suffix);
	double w = (double)strlen(label) * SW + 6;
	bool right = x + w > W - 8;  /* near the edge: label to the left */
	double lx = right ? x - w : x + 3;

	p->causes |= 1u << k;
	fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	        "stroke=\"%s\" stroke-width=\"2\"/>\n", x, top, x, top + 10,
	        action_color[k]);
	for (int r = 0; r < 4; r++)
		if (rowend[r] <= lx) {
			text(p->f, right ? x - 3 : x + 3, top + 22 + 13 * r,
			     right ? "end" : "start", action_color[k], true, label);
			rowend[r] = lx + w;
			return;
		}
}

/* Every page update's cause (once per instant), the scenario's timed
 * actions that wrote nothing, and the actions injected into the call. */
static void actions_lane(struct tl *p)
{
	double rowend[4] = { 0, 0, 0, 0 }, top = p->y;

	lane_label(p->f, top + 11, "kernel actions", "each page update's cause");
	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#ddd\"/>\n", LEFT, top + 5, RIGHT, top + 5);
	for (unsigned i = 0; i < p->nu; i++) {
		bool seen = false;
		for (unsigned k = 0; k < i && !seen; k++)
			seen = p->u[k].at == p->u[i].at && p->u[k].why == p->u[i].why;
		if (!seen)
			action_mark(p, xof(p, p->u[i].at), p->u[i].why, "", rowend, top);
	}
	for (unsigned k = 0; k < p->s->nactions; k++) {
		const struct sm_timed_action *a = &p->s->act[k];
		bool wrote = false;
		for (unsigned i = 0; i < p->nu && !wrote; i++)
			wrote = p->u[i].at == a->at && p->u[i].why == a->act.kind;
		if (!wrote)
			action_mark(p, xof(p, a->at), a->act.kind, " (no update)",
			            rowend, top);
	}
	for (unsigned k = 0; p->have_call && k < p->sched->n; k++)
		action_mark(p, xof(p, p->call_at + p->sched->item[k].step),
		            p->sched->item[k].kind, " (injected)", rowend, top);
	unsigned rows = 0;
	for (int r = 0; r < 4; r++)
		rows += rowend[r] > 0;
	p->y += 18 + 13 * (rows ? rows : 1) + 6;
}

/* Cycle ticks under the lanes, from top down to the axis. */
static void time_axis(struct tl *p, double top)
{
	uint64_t st = ticks(p->end ? p->end : 1, 8);
	char num[32];

	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#444\"/>\n", LEFT, p->y, RIGHT, p->y);
	for (uint64_t t = 0; t <= p->end; t += st) {
		double x = xof(p, t);
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#f0f0f0\"/>\n", x, top, x, p->y);
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#444\"/>\n", x, p->y, x, p->y + 5);
		grouped(t, num, sizeof(num));
		text(p->f, x, p->y + 17, "middle", "#444", true, num);
		if (t > UINT64_MAX - st)
			break;
	}
	text(p->f, (LEFT + RIGHT) / 2.0, p->y + 33, "middle", "#000", false,
	     "time: cycles since the scenario began (the model runs one cycle "
	     "per reader instruction)");
	p->y += 44;
}

/* The call's band over the lanes, with the cursor of the HTML page. */
static void call_band(struct tl *p, double top, double bottom)
{
	bool bad = sm_verdict_fails(p->res.verdict);
	double x0 = xof(p, p->call_at), x1 = xof(p, p->call_at + p->steps);

	fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	        "fill=\"%s\" opacity=\"0.15\"/>\n", x0 - 2, top, x1 - x0 + 4,
	        bottom - top, bad ? "#d00" : "#080");
	bool right = x1 + 90 > W - 8;
	text(p->f, right ? x0 - 4 : x1 + 4, top + 10, right ? "end" : "start",
	     bad ? "#d00" : "#080", true, "the reader's call");
	if (p->o->in_html)
		fprintf(p->f, "<line id=\"tl-cursor\" x1=\"%.1f\" y1=\"%.1f\" "
		        "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" stroke-width=\"2\" "
		        "data-x0=\"%.2f\" data-x1=\"%.2f\"/>\n", x0, top, x0, bottom,
		        x0, x1);
}

static void caption(struct tl *p)
{
	char line[1600], num[32];
	bool bad = sm_verdict_fails(p->res.verdict);

	grouped(p->call_at, num, sizeof(num));
	char got[160];
	if (p->reader->abi == SM_ABI_TIMES || p->reader->abi == SM_ABI_VALUES ||
	    p->reader->abi == SM_ABI_RESET)
		snprintf(got, sizeof(got), "count %" PRIu64 ", enabled %" PRIu64
		         ", running %" PRIu64, p->res.value[0], p->res.value[1],
		         p->res.value[2]);
	else
		snprintf(got, sizeof(got), "count %" PRIu64, p->res.value[0]);
	snprintf(line, sizeof(line), "%s, called at cycle %s, ran %" PRIu64
	         " instructions: %s, returned %s. %s", p->reader->name, num,
	         p->steps, sm_verdict_name(p->res.verdict), got, p->res.detail);
	p->y += 15 * wrap(p->f, 8, p->y + 12, W - 16, bad ? "#d00" : "#080",
	                  line) + 8;
}

/* ---- the call, zoomed ----------------------------------------------- */

static double zx(const struct tl *p, double step)
{
	return LEFT + (RIGHT - LEFT) * step / (double)(p->steps ? p->steps : 1);
}

static void zoom_truth(struct tl *p, double y, double h, uint64_t lo,
                       uint64_t hi)
{
	static const char *const color[3] = { C_COUNT, C_ENABLED, C_RUNNING };
	fprintf(p->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
	        "points=\"", color[p->which]);
	for (unsigned i = 0; i < p->ncall; i++)
		fprintf(p->f, "%.1f,%.1f ", zx(p, (double)p->steps * i /
		        (p->ncall > 1 ? p->ncall - 1 : 1)), y + h - h *
		        (double)(truth_of(&p->call_truth[i], p->which) - lo) /
		        (double)(hi - lo));
	fputs("\"/>\n", p->f);
}

/* The returned count as a line, or an arrow at the edge when off the
 * scale, labelled. */
static void zoom_returned(struct tl *p, double y, double h, uint64_t lo,
                          uint64_t hi, const char *col)
{
	uint64_t v = p->res.value[p->shown];
	double vy = v < lo ? y + h : v > hi ? y : y + h - h *
	            (double)(v - lo) / (double)(hi - lo);
	char buf[128];

	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"%s\" stroke-width=\"3\"%s/>\n", LEFT, vy, RIGHT, vy, col,
	        v < lo || v > hi ? " stroke-dasharray=\"8 4\"" : "");
	snprintf(buf, sizeof(buf), "returned %s %" PRIu64 "%s", names[p->shown], v,
	         v < lo ? " (far below: off the scale)" : v > hi
	         ? " (far above: off the scale)" : "");
	text(p->f, RIGHT, v > hi || vy < y + 20 ? vy + 14 : vy - 5, "end", col,
	     true, buf);
}

static void zoom_steps_axis(struct tl *p, double y)
{
	uint64_t st = ticks(p->steps ? p->steps : 1, 8);
	char num[32];

	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#444\"/>\n", LEFT, y, RIGHT, y);
	for (uint64_t t = 0; t <= p->steps; t += st) {
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#444\"/>\n", zx(p, (double)t), y, zx(p, (double)t),
		        y + 5);
		grouped(t, num, sizeof(num));
		text(p->f, zx(p, (double)t), y + 17, "middle", "#444", true, num);
		if (t > UINT64_MAX - st)
			break;
	}
	text(p->f, (LEFT + RIGHT) / 2.0, y + 33, "middle", "#000", false,
	     "instructions the reader executed (steps; one cycle each)");
}

static void zoom(struct tl *p, const char *col)
{
	double h = 90, y;
	uint64_t lo = UINT64_MAX, hi = 0;

	for (unsigned i = 0; i < p->ncall; i++) {
		uint64_t v = truth_of(&p->call_truth[i], p->which);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	lo = p->ncall ? lo : 0;
	hi = hi > lo ? hi : lo + 1;
	char head[160], lane[40];
	snprintf(head, sizeof(head), "The call, zoomed in: the true %s while the "
	         "reader runs, and the %s it returned", names[p->which],
	         names[p->which]);
	text(p->f, 8, p->y + 12, "start", "#000", false, head);
	y = p->y += 34;
	snprintf(lane, sizeof(lane), "true %s", names[p->which]);
	lane_label(p->f, y + 40, lane, "during the call");
	value_axis(p->f, y, h, lo, hi, p->which ? " ns" : "");
	for (unsigned k = 0; k < p->sched->n; k++) {
		double x = zx(p, (double)p->sched->item[k].step);
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n", x, y - 8, x,
		        y + h + 20, action_color[p->sched->item[k].kind]);
		text(p->f, x + 3, y - 2, x + 100 > W - 8 ? "end" : "start",
		     action_color[p->sched->item[k].kind], true,
		     sm_action_name(p->sched->item[k].kind));
	}
	zoom_truth(p, y, h, lo, hi);
	zoom_returned(p, y, h, lo, hi, col);
	for (unsigned i = 0; i < p->ntrap; i++)
		fprintf(p->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
		        "fill=\"#333\"/>\n", zx(p, (double)p->trap_step[i]),
		        y + h + 12);
	if (p->o->in_html)
		fprintf(p->f, "<line id=\"tl-zcursor\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
		        "y2=\"%.1f\" stroke=\"#000\" stroke-width=\"2\" data-x0=\"%d\" "
		        "data-x1=\"%d\"/>\n", LEFT, y - 6, LEFT, y + h + 18, LEFT,
		        RIGHT);
	text(p->f, LEFT - 6, y + h + 16, "end", "#333", true, "page loads, traps");
	zoom_steps_axis(p, y + h + 22);
	p->y = y + h + 22 + 44;
}

/* ---- legend --------------------------------------------------------- */

/* One legend entry at (*x, *y), flowing to the next row at the edge. */
static void entry(struct tl *p, double *x, const char *shape,
                  const char *color, const char *label)
{
	double w = 26 + (double)strlen(label) * SW + 18;
	if (*x + w > W - 8) {
		*x = LEFT;
		p->y += 18;
	}
	double y = p->y;
	if (!strcmp(shape, "line"))
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-width=\"3\"/>\n", *x, y - 4, *x + 20,
		        y - 4, color);
	else if (!strcmp(shape, "tick"))
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-width=\"2\"/>\n", *x + 10, y - 11,
		        *x + 10, y + 3, color);
	else if (!strcmp(shape, "dot"))
		fprintf(p->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>"
		        "\n", *x + 10, y - 4, color);
	else
		fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" "
		        "fill=\"%s\" opacity=\"0.55\"/>\n", *x, y - 9, color);
	text(p->f, *x + 26, y, "start", "#000", true, label);
	*x += w;
}

static void legend(struct tl *p)
{
	double x = LEFT;

	text(p->f, 8, p->y + 12, "start", "#000", false, "legend");
	p->y += 12;
	entry(p, &x, "line", C_COUNT, "true count");
	entry(p, &x, "line", C_ENABLED, "time_enabled");
	entry(p, &x, "line", C_RUNNING, "time_running");
	entry(p, &x, "rect", "#6a6", "on a counter (index = counter + 1)");
	entry(p, &x, "rect", "#ccc", "index 0: not on a counter");
	for (int k = 0; k < SM_NACTIONS; k++)
		if (p->causes & (1u << k)) {
			char label[64];
			snprintf(label, sizeof(label), "page update: %s",
			         sm_action_name((enum sm_action_kind)k));
			entry(p, &x, "tick", action_color[k], label);
		}
	if (p->have_call) {
		bool bad = sm_verdict_fails(p->res.verdict);
		char what[48];
		snprintf(what, sizeof(what), "%s the reader returned",
		         names[p->which]);
		entry(p, &x, "line", bad ? "#d00" : "#080", what);
		entry(p, &x, "dot", "#333", "a page load or trapped read");
	}
	p->y += 16;
}

/* ---- the picture ---------------------------------------------------- */

static void title(struct tl *p)
{
	const struct sm_config *c = &p->s->cfg;
	const char *base = strrchr(p->s->name, '/');
	char t[900], kn[256], kernel[300] = "";

	if (c->kernel || p->o->kernel_mark) /* which kernel drew the picture */
		snprintf(kernel, sizeof(kernel), ", kernel %s",
		         sm_kernel_text(c->kernel, kn, sizeof(kn)));
	snprintf(t, sizeof(t), "%s (%s%s): the true count and times of %s, "
	         "each event's page index, the kernel's actions%s%s%s",
	         base ? base + 1 : p->s->name, sm_arch_name(c->arch), kernel,
	         c->event[0].name, p->have_call ? ", and one call of " : "",
	         p->have_call ? p->reader->name : "", p->o->dropped
	         ? " (some scripted lines skipped: --drop-scripted)" : "");
	p->y = 20 + 15 * wrap(p->f, 8, 20, W - 16, "#000", t);
}

static void body(struct tl *p)
{
	title(p);
	double top = p->y;
	truth_lanes(p);
	for (unsigned e = 0; e < p->s->cfg.nevents; e++)
		index_lane(p, e);
	actions_lane(p);
	if (p->have_call)
		call_band(p, top, p->y);
	time_axis(p, top);
	if (p->have_call) {
		caption(p);
		zoom(p, sm_verdict_fails(p->res.verdict) ? "#d00" : "#080");
	}
	legend(p);
}

/* Header, then the body drawn apart (its height known only after). */
static int draw(FILE *f, struct tl *p, char *err, size_t n)
{
	char *buf = NULL;
	size_t len = 0;

	p->f = open_memstream(&buf, &len);
	if (!p->f)
		return snprintf(err, n, "out of memory"), -1;
	body(p);
	if (fclose(p->f) != 0 || !buf) {
		free(buf);
		return snprintf(err, n, "out of memory"), -1;
	}
	if (!p->o->in_html)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg %swidth=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
	        "font-family=\"sans-serif\" font-size=\"12\"%s>\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	        p->o->in_html ? "id=\"timeline\" "
	                      : "xmlns=\"http://www.w3.org/2000/svg\" ",
	        W, p->y + 8, W, p->y + 8,
	        p->o->in_html ? " style=\"max-width:100%;height:auto\"" : "");
	fwrite(buf, 1, len, f);
	fputs("</svg>\n", f);
	free(buf);
	return 0;
}

int sm_timeline_svg(FILE *f, const struct sm_scenario *scn,
                    const struct sm_timeline_call *call,
                    const struct sm_timeline_opts *o, char *err, size_t n)
{
	struct tl *p = calloc(1, sizeof(*p));
	int rc;

	if (!p)
		return snprintf(err, n, "out of memory"), -1;
	p->s = scn;
	p->o = o;
	p->end = scn->end > scn->check_at ? scn->end
	         : scn->check_at > UINT64_MAX - 200 ? UINT64_MAX
	         : scn->check_at + 200;
	rc = sample(p, err, n) < 0 || (call && call_reader(p, call, err, n) < 0)
	     ? -1 : draw(f, p, err, n);
	free(p);
	return rc;
}
