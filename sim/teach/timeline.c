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
#define MAXBOX 4096     /* labels kept clear of the grid */
#define MAXGRID 256     /* grid lines */
#define MAXIDX 64       /* distinct page indexes labelled alike */

struct update {
	uint64_t at;
	int ev;
	uint32_t index;
	enum sm_action_kind why;
};

struct box {
	double x0, y0, x1, y1;
};

struct gridline {
	double x0, y0, x1, y1;
	const char *color, *attr;
};

/* One page index's label, the same on each of its bars: the widest form
 * that fits the narrowest bar that carries a label. */
struct idx_label {
	uint32_t index;
	double narrowest;
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
	struct box box[MAXBOX];   /* every label's box */
	unsigned nbox;
	bool boxes_full;
	struct gridline grid[MAXGRID];
	unsigned ngrid;
	struct idx_label idx[MAXIDX];
	unsigned nidx;
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
		p->call_truth[i] = *x;
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

/* An estimate of s's width at size px in the browsers' sans-serif
 * (DejaVu Sans' advances, rounded up by class of character). */
static double text_w(const char *s, double size)
{
	double em = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c & 0xc0) == 0x80)
			continue; /* a UTF-8 tail */
		em += strchr("ijlI.,:;'|!()[] ", c) ? 0.40 : strchr("tfr", c) ? 0.44
		      : strchr("mwMW@%", c) ? 1.0 : c >= 'A' && c <= 'Z' ? 0.80
		      : 0.66;
	}
	return em * size;
}

/* size 12 unless small (11), with attributes attr (" class=..." or "");
 * its box kept, for the grid lines to pass around it. */
static void text_attr(struct tl *p, double x, double y, const char *anchor,
                      const char *color, bool small, const char *attr,
                      const char *s)
{
	double size = small ? 11 : 12, w = text_w(s, size);
	double x0 = !strcmp(anchor, "end") ? x - w
	            : !strcmp(anchor, "middle") ? x - w / 2 : x;

	if (p->nbox < MAXBOX)
		p->box[p->nbox++] = (struct box){ x0 - 2, y - size - 1, x0 + w + 2,
		                                  y + size * 0.3 + 1 };
	else
		p->boxes_full = true;
	fprintf(p->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" "
	        "fill=\"%s\"%s%s>", x, y, anchor, color,
	        small ? " font-size=\"11\"" : "", attr);
	sm_xml_put(p->f, s);
	fputs("</text>\n", p->f);
}

static void text(struct tl *p, double x, double y, const char *anchor,
                 const char *color, bool small, const char *s)
{
	text_attr(p, x, y, anchor, color, small, "", s);
}

/* A grid line, drawn under everything once every label is placed
 * (grid_put()). */
static void grid_line(struct tl *p, double x0, double y0, double x1,
                      double y1, const char *color, const char *attr)
{
	if (p->ngrid < MAXGRID)
		p->grid[p->ngrid++] = (struct gridline){ x0, y0, x1, y1, color,
		                                         attr };
}

static void grid(struct tl *p, double x0, double y0, double x1, double y1,
                 const char *color)
{
	grid_line(p, x0, y0, x1, y1, color, " class=\"grid\"");
}

/* Grid line g (vertical or horizontal) in pieces, broken at each label's
 * box it would cross; none at all when not every box is known. */
static void grid_put(FILE *f, const struct tl *p, const struct gridline *g)
{
	bool vert = g->x0 == g->x1;
	double a = vert ? g->y0 : g->x0, b = vert ? g->y1 : g->x1;
	double c = vert ? g->x0 : g->y0;

	if (p->boxes_full)
		return;
	while (a < b) {
		bool moved = true;
		double end = b;
		while (moved) { /* out of every box a lies in */
			moved = false;
			for (unsigned i = 0; i < p->nbox; i++) {
				const struct box *x = &p->box[i];
				double lo = vert ? x->y0 : x->x0, hi = vert ? x->y1 : x->x1;
				if (c >= (vert ? x->x0 : x->y0) &&
				    c <= (vert ? x->x1 : x->y1) && lo <= a && hi > a) {
					a = hi;
					moved = true;
				}
			}
		}
		for (unsigned i = 0; i < p->nbox && a < b; i++) {
			const struct box *x = &p->box[i];
			double lo = vert ? x->y0 : x->x0;
			if (c >= (vert ? x->x0 : x->y0) && c <= (vert ? x->x1 : x->y1) &&
			    lo > a && lo < end)
				end = lo;
		}
		if (a < b)
			fprintf(f, "<line%s x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			        "y2=\"%.1f\" stroke=\"%s\"/>\n", g->attr,
			        vert ? c : a, vert ? a : c, vert ? c : end,
			        vert ? end : c, g->color);
		a = end;
	}
}

/* Elements shown with the verdict (class tl-verdict) or, on the page,
 * before the reader has returned (tl-pending, hidden until page.js shows
 * it): the page shows the verdict only at the step the reader returns. */
static void group(struct tl *p, bool verdict)
{
	if (verdict)
		fputs("<g class=\"tl-verdict\">\n", p->f);
	else
		fputs("<g class=\"tl-pending\" style=\"display:none\">\n", p->f);
}

static void group_end(struct tl *p)
{
	fputs("</g>\n", p->f);
}

/* s in lines of at most width px from (x, y), 15 px apart; the lines. */
static unsigned wrap(struct tl *p, double x, double y, double width,
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
		text(p, x, y + 15 * lines++, "start", color, false, line);
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
static void value_axis(struct tl *p, double y0, double h, uint64_t lo,
                       uint64_t hi, const char *unit)
{
	uint64_t st = ticks(hi - lo, 4);
	char buf[48], num[32];

	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#444\"/>\n", LEFT, y0, LEFT, y0 + h);
	for (uint64_t v = lo; v <= hi && v >= lo; v += st) {
		double y = y0 + h - h * (double)(v - lo) / (double)(hi - lo);
		grouped(v, num, sizeof(num));
		snprintf(buf, sizeof(buf), "%s%s", num,
		         v + st > hi || v + st < v ? unit : "");
		text(p, LEFT - 6, y + 4, "end", "#444", true, buf);
		grid(p, LEFT, y, RIGHT, y, "#eee");
		if (v > UINT64_MAX - st)
			break;
	}
}

/* The lane's name at the left, on one or two lines. */
static void lane_label(struct tl *p, double y, const char *l1,
                       const char *l2)
{
	text(p, 8, y, "start", "#000", false, l1);
	if (l2)
		text(p, 8, y + 14, "start", "#555", true, l2);
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
	lane_label(p, p->y + 30, "true count", "events counted");
	value_axis(p, p->y, h, 0, hi, "");
	curve(p, 0, p->y, h, hi, C_COUNT, 2);
	p->y += h + 30;
	hi = highest(p, 1) > highest(p, 2) ? highest(p, 1) : highest(p, 2);
	st = ticks(hi ? hi : 1, 4);
	hi = (hi / st + (hi % st != 0)) * st;
	hi = hi ? hi : 1;
	lane_label(p, p->y + 30, "enabled, running", "time, ns (as read(2))");
	value_axis(p, p->y, h, 0, hi, " ns");
	curve(p, 1, p->y, h, hi, C_ENABLED, 5); /* wide: running on it */
	curve(p, 2, p->y, h, hi, C_RUNNING, 2);
	p->y += h + 24;
}

/* Index's two labels: hex ("0x40000001", "3") and mid ("0x40000001:
 * fixed counter 0", without the rdpmc parenthesis the legend gives). */
static void index_names(const struct tl *p, uint32_t index, char *hex,
                        size_t hn, char *mid, size_t mn)
{
	char name[80];
	enum sm_arch a = p->s->cfg.arch;

	sm_index_short(a, index, hex, hn);
	sm_index_counter(a, index, name, sizeof(name));
	int cut = (int)strcspn(name, "(");
	while (cut > 0 && name[cut - 1] == ' ')
		cut--;
	snprintf(mid, mn, "%s: %.*s", hex, cut, name);
}

static struct idx_label *idx_of(struct tl *p, uint32_t index)
{
	for (unsigned i = 0; i < p->nidx; i++)
		if (p->idx[i].index == index)
			return &p->idx[i];
	if (p->nidx == MAXIDX)
		return NULL;
	p->idx[p->nidx] = (struct idx_label){ index, 1e9 };
	return &p->idx[p->nidx++];
}

/* Each stretch of event e's index, from one page update to the next:
 * fn(p, index, from, to). */
static void each_bar(struct tl *p, unsigned e,
                     void (*fn)(struct tl *, uint32_t, uint64_t, uint64_t))
{
	uint32_t cur = 0;
	uint64_t from = 0;

	for (unsigned i = 0; i <= p->nu; i++) {
		bool last = i == p->nu;
		if (!last && p->u[i].ev != (int)e)
			continue;
		uint64_t at = last ? p->end : p->u[i].at;
		if (at > from || (last && at == from && from < p->end))
			fn(p, cur, from, at);
		if (last)
			break;
		cur = p->u[i].index;
		from = at;
	}
}

/* The narrowest bar of each index that is wide enough for a label. */
static void measure_bar(struct tl *p, uint32_t index, uint64_t from,
                        uint64_t to)
{
	char hex[24], mid[100];
	double w = xof(p, to) - xof(p, from);
	struct idx_label *l = idx_of(p, index);

	index_names(p, index, hex, sizeof(hex), mid, sizeof(mid));
	if (l && w > text_w(hex, 11) + 8 && w < l->narrowest)
		l->narrowest = w;
}

/* One stretch of an event's index: a bar, labelled as every bar of its
 * index is (measure_bar()) when it fits. */
static void index_bar(struct tl *p, uint32_t index, uint64_t from,
                      uint64_t to)
{
	char hex[24], mid[100], name[80], both[120], attr[64];
	double x0 = xof(p, from), x1 = xof(p, to), y = p->y;
	const struct idx_label *l = idx_of(p, index);

	index_names(p, index, hex, sizeof(hex), mid, sizeof(mid));
	sm_index_counter(p->s->cfg.arch, index, name, sizeof(name));
	snprintf(both, sizeof(both), "index %s: %s", hex, name);
	fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" "
	        "fill=\"%s\" opacity=\"0.55\"><title>", x0, y, x1 - x0 + 0.5,
	        index ? "#6a6" : "#ccc");
	sm_xml_put(p->f, both);
	fputs("</title></rect>\n", p->f);
	if (!l || x1 - x0 <= text_w(hex, 11) + 8)
		return;
	snprintf(attr, sizeof(attr), " class=\"idx\" data-index=\"%s\"", hex);
	text_attr(p, x0 + 4, y + 11, "start", "#000", true, attr,
	          l->narrowest > text_w(mid, 11) + 8 ? mid : hex);
}

static void index_lane(struct tl *p, unsigned e)
{
	char label[80];

	snprintf(label, sizeof(label), "%s", p->s->cfg.event[e].name);
	lane_label(p, p->y + 11, label, "page index");
	each_bar(p, e, index_bar);
	for (unsigned i = 0; i < p->nu; i++) {
		if (p->u[i].ev != (int)e)
			continue;
		double x = xof(p, p->u[i].at);
		p->causes |= 1u << p->u[i].why;
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-width=\"2\"><title>page update: %s"
		        "</title></line>\n", x, p->y - 4, x, p->y + 18,
		        action_color[p->u[i].why], sm_action_name(p->u[i].why));
	}
	p->y += 34;
}

/* A named mark in a lane of labels, its label in the first of nrows
 * rows (13 px apart from y) where it fits (rowend: where each row is
 * taken up to); no label when none has room. */
static void row_label(struct tl *p, double x, double y, const char *label,
                      const char *color, double *rowend, int nrows)
{
	double w = text_w(label, 11) + 6;
	bool right = x + w > W - 8;  /* near the edge: label to the left */
	double lx = right ? x - w : x + 3;

	for (int r = 0; r < nrows; r++)
		if (rowend[r] <= lx) {
			text(p, right ? x - 3 : x + 3, y + 13 * r,
			     right ? "end" : "start", color, true, label);
			rowend[r] = lx + w;
			return;
		}
}

/* A mark in the kernel-actions lane: a tick and its label. */
static void lane_mark(struct tl *p, double x, const char *label,
                      const char *color, double rowend[4], double top)
{
	fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	        "stroke=\"%s\" stroke-width=\"2\"/>\n", x, top, x, top + 10,
	        color);
	row_label(p, x, top + 22, label, color, rowend, 4);
}

static void action_mark(struct tl *p, double x, enum sm_action_kind k,
                        const char *suffix, double rowend[4], double top)
{
	char label[64];
	snprintf(label, sizeof(label), "%s%s", sm_action_name(k), suffix);
	p->causes |= 1u << k;
	lane_mark(p, x, label, action_color[k], rowend, top);
}

/* The first instant of the scenario at which the timer register wraps
 * to 0: arm64's CNTVCT_EL0 and riscv64's time CSR are timer_width bits
 * wide (sm_model_timer()), at start + t cycles at time t.  False when it
 * does not wrap within the scenario (x86's TSC is 64 bits from 0). */
static bool timer_wrap(const struct tl *p, uint64_t *at)
{
	const struct sm_config *c = &p->s->cfg;
	unsigned w = c->timer_width;

	if (c->arch == SM_X86_64 || w == 0 || w > 64)
		return false;
	uint64_t mask = w == 64 ? UINT64_MAX : (1ull << w) - 1;
	if (!(c->start & mask))
		return false; /* it starts at 0: the next wrap is 2^w away */
	*at = (~c->start & mask) + 1; /* 2^w - (start & mask) */
	return *at <= p->end;
}

static void wrap_text(const struct tl *p, char *buf, size_t n)
{
	const struct sm_config *c = &p->s->cfg;
	snprintf(buf, n, "timer wraps: %s 2^%u - 1 -> 0",
	         c->arch == SM_ARM64 ? "CNTVCT_EL0" : "time CSR", c->timer_width);
}

#define C_WRAP "#a50"
static const char wrap_attr[] = " class=\"tl-wrap\" stroke-width=\"2\" "
                                "stroke-dasharray=\"6 3\"";

/* Every page update's cause (once per instant), the scenario's timed
 * actions that wrote nothing, the actions injected into the call, and
 * where the timer wraps. */
static void actions_lane(struct tl *p)
{
	double rowend[4] = { 0, 0, 0, 0 }, top = p->y;
	uint64_t wrap_at;
	char label[80];

	lane_label(p, top + 11, "kernel actions", "each page update's cause");
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
	if (timer_wrap(p, &wrap_at)) {
		wrap_text(p, label, sizeof(label));
		lane_mark(p, xof(p, wrap_at), label, C_WRAP, rowend, top);
	}
	unsigned rows = 0;
	for (int r = 0; r < 4; r++)
		rows += rowend[r] > 0;
	p->y += 18 + 13 * (rows ? rows : 1) + 6;
}

/* Cycle ticks under the lanes, from top down to the axis, and the
 * timer's wrap through them. */
static void time_axis(struct tl *p, double top)
{
	uint64_t st = ticks(p->end ? p->end : 1, 8), wrap_at;
	char num[32];

	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#444\"/>\n", LEFT, p->y, RIGHT, p->y);
	for (uint64_t t = 0; t <= p->end; t += st) {
		double x = xof(p, t);
		grid(p, x, top, x, p->y, "#f0f0f0");
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#444\"/>\n", x, p->y, x, p->y + 5);
		grouped(t, num, sizeof(num));
		text(p, x, p->y + 17, "middle", "#444", true, num);
		if (t > UINT64_MAX - st)
			break;
	}
	if (timer_wrap(p, &wrap_at))
		grid_line(p, xof(p, wrap_at), top, xof(p, wrap_at), p->y, C_WRAP,
		          wrap_attr);
	text(p, (LEFT + RIGHT) / 2.0, p->y + 33, "middle", "#000", false,
	     "time: cycles since the scenario began (the model runs one cycle "
	     "per reader instruction)");
	p->y += 44;
}

/* The groups drawn: on the page, the one before the reader returns
 * (0) and the verdict's (1); in a plain picture, the verdict's. */
static int first_group(const struct tl *p)
{
	return p->o->in_html ? 0 : 1;
}

/* The call's band over the lanes, with the cursor of the HTML page. */
static void call_band(struct tl *p, double top, double bottom)
{
	bool bad = sm_verdict_fails(p->res.verdict);
	double x0 = xof(p, p->call_at), x1 = xof(p, p->call_at + p->steps);

	for (int v = first_group(p); v < 2; v++) {
		const char *col = !v ? "#888" : bad ? "#d00" : "#080";
		group(p, v);
		fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		        "height=\"%.1f\" fill=\"%s\" opacity=\"0.15\"/>\n", x0 - 2,
		        top, x1 - x0 + 4, bottom - top, col);
		bool right = x1 + 90 > W - 8;
		text(p, right ? x0 - 4 : x1 + 4, top + 10, right ? "end" : "start",
		     col, true, "the reader's call");
		group_end(p);
	}
	if (p->o->in_html)
		fprintf(p->f, "<line id=\"tl-cursor\" x1=\"%.1f\" y1=\"%.1f\" "
		        "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" stroke-width=\"2\" "
		        "data-x0=\"%.2f\" data-x1=\"%.2f\"/>\n", x0, top, x0, bottom,
		        x0, x1);
}

/* Did the reader return values (a FAULT or a livelock returns none)? */
static bool returned(const struct sm_result *r)
{
	return r->verdict == SM_V_PASS || r->verdict == SM_V_WRONG_VALUE;
}

static void caption(struct tl *p)
{
	char line[1600], num[32], got[160];
	bool bad = sm_verdict_fails(p->res.verdict);
	unsigned lines = 0;

	grouped(p->call_at, num, sizeof(num));
	if (!returned(&p->res))
		snprintf(got, sizeof(got), "nothing");
	else if (p->reader->abi == SM_ABI_TIMES ||
	         p->reader->abi == SM_ABI_VALUES || p->reader->abi == SM_ABI_RESET)
		snprintf(got, sizeof(got), "count %" PRIu64 ", enabled %" PRIu64
		         ", running %" PRIu64, p->res.value[0], p->res.value[1],
		         p->res.value[2]);
	else
		snprintf(got, sizeof(got), "count %" PRIu64, p->res.value[0]);
	for (int v = first_group(p); v < 2; v++) {
		if (v)
			snprintf(line, sizeof(line), "%s, called at cycle %s, ran %"
			         PRIu64 " instructions: %s, returned %s. %s",
			         p->reader->name, num, p->steps,
			         sm_verdict_name(p->res.verdict), got, p->res.detail);
		else
			snprintf(line, sizeof(line), "%s, called at cycle %s, runs %"
			         PRIu64 " instructions: the verdict shows once the "
			         "cursor reaches the last of them.", p->reader->name,
			         num, p->steps);
		group(p, v);
		unsigned k = wrap(p, 8, p->y + 12, W - 16, !v ? "#444" : bad
		                  ? "#d00" : "#080", line);
		group_end(p);
		lines = k > lines ? k : lines;
	}
	p->y += 15 * lines + 8;
}

/* ---- the call, zoomed ----------------------------------------------- */

/* What the zoom draws of the result, from its fields: the returned value
 * on the truth's scale (a PASS, a value the truth skipped or missed by
 * little or far), a value an exact power of two off the truth (drawn as
 * that offset: in a band below or above the truth's, at the truth's
 * level it is off from), the relation's two values against each other,
 * or a fault (nothing returned). */
enum zmode { Z_NONE, Z_VALUE, Z_OFFSET, Z_RELATION, Z_FAULT };

static enum zmode zmode_of(const struct sm_result *r)
{
	if (r->verdict == SM_V_FAULT)
		return Z_FAULT;
	if (r->verdict == SM_V_PASS)
		return Z_VALUE;
	if (r->verdict != SM_V_WRONG_VALUE || !r->nwrong ||
	    r->wrong[0].field == SM_WF_RC)
		return Z_NONE;
	if (r->wrong[0].field == SM_WF_RELATION)
		return Z_RELATION;
	return r->wrong[0].offset_bits ? Z_OFFSET : Z_VALUE;
}

/* The zoom's geometry: the truth's band [ym, ym + h] on the scale
 * [lo, hi], the offset band [yb, yb + BAND] (off), the bottom. */
struct zgeom {
	enum zmode mode;
	double ym, h, yb, bottom;
	uint64_t lo, hi;
	uint64_t v;        /* the value drawn (Z_VALUE, Z_OFFSET) */
	bool off, below;   /* drawn in the offset band, below the truth's */
	const char *field; /* its name */
};
#define BAND 34
#define GAP 16

static double zx(const struct tl *p, double step)
{
	return LEFT + (RIGHT - LEFT) * step / (double)(p->steps ? p->steps : 1);
}

/* Sample i's step on the zoom's axis. */
static double zstep(const struct tl *p, unsigned i)
{
	return (double)p->steps * i / (p->ncall > 1 ? p->ncall - 1 : 1);
}

static double zy(const struct zgeom *g, uint64_t v)
{
	return g->ym + g->h - g->h * (double)(v - g->lo) / (double)(g->hi - g->lo);
}

static void zoom_curve(struct tl *p, const struct zgeom *g, int which)
{
	static const char *const color[3] = { C_COUNT, C_ENABLED, C_RUNNING };
	fprintf(p->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
	        "points=\"", color[which]);
	for (unsigned i = 0; i < p->ncall; i++)
		fprintf(p->f, "%.1f,%.1f ", zx(p, zstep(p, i)),
		        zy(g, truth_of(&p->call_truth[i], which)));
	fputs("\"/>\n", p->f);
}

/* The first sample whose truth in `which` (or the page's rounding of a
 * time) is v: its index, or -1. */
static int zfind(const struct tl *p, int which, uint64_t v)
{
	for (unsigned i = 0; i < p->ncall; i++) {
		const struct sm_truth *t = &p->call_truth[i];
		if (truth_of(t, which) == v || (which == 1 && t->enabled_pub == v) ||
		    (which == 2 && t->running_pub == v))
			return (int)i;
	}
	return -1;
}

static void zline(struct tl *p, double y, const char *col, bool dashed)
{
	fprintf(p->f, "<line class=\"tl-returned\" x1=\"%d\" y1=\"%.1f\" "
	        "x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"%s/>\n",
	        LEFT, y, RIGHT, y, col, dashed ? " stroke-dasharray=\"8 4\"" : "");
}

/* The returned value: on the truth's scale, or in the offset band at the
 * truth's level it is 2^b off from (with the offset drawn from the
 * instant the truth had that level), or there far off the scale. */
static void zoom_value(struct tl *p, const struct zgeom *g, const char *col)
{
	const struct sm_wrong *x = &p->res.wrong[0];
	char buf[300], s64[64] = "";
	uint64_t v = g->v;
	double arrow_x = LEFT; /* the offset's arrow, if any */

	if (v >> 63)
		snprintf(s64, sizeof(s64), " (as s64: %" PRId64 ")", (int64_t)v);
	if (!g->off) {
		double vy = zy(g, v);
		zline(p, vy, col, false);
		snprintf(buf, sizeof(buf), "returned %s %" PRIu64, g->field, v);
		text(p, RIGHT, vy < g->ym + 20 ? vy + 14 : vy - 5, "end", col, true,
		     buf);
		return;
	}
	/* the offset band: its axis, broken from the truth's */
	double gy = g->below ? g->ym + g->h : g->yb + BAND;
	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#444\"/>\n", LEFT, g->yb, LEFT, g->yb + BAND);
	for (int k = 0; k < 2; k++)
		fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		        "stroke=\"#444\"/>\n", LEFT - 5, gy + 5 + 5 * k, LEFT + 5,
		        gy + 1 + 5 * k);
	double ly;
	if (g->mode == Z_OFFSET) {
		uint64_t d = 1ull << x->offset_bits;
		uint64_t t = g->below ? v + d : v - d; /* the truth it is off from */
		snprintf(buf, sizeof(buf), "truth %s 2^%u", g->below ? "-" : "+",
		         x->offset_bits);
		text(p, LEFT - 6, g->yb + BAND / 2 + 4, "end", "#444", true, buf);
		ly = g->yb + BAND * (zy(g, t) - g->ym) / g->h;
		ly = ly < g->yb ? g->yb : ly > g->yb + BAND ? g->yb + BAND : ly;
		zline(p, ly, col, false);
		int i = zfind(p, p->which, t);
		if (i >= 0) { /* from the truth's level down (up) to the value */
			double xx = arrow_x = zx(p, zstep(p, (unsigned)i));
			fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			        "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" "
			        "stroke-dasharray=\"3 2\"/>\n<circle cx=\"%.1f\" "
			        "cy=\"%.1f\" r=\"4\" fill=\"none\" stroke=\"%s\"/>\n", xx,
			        zy(g, t), xx, ly, col, xx, zy(g, t), col);
			snprintf(buf, sizeof(buf), "%s2^%u", g->below ? "-" : "+",
			         x->offset_bits);
			text(p, xx + 5, g->below ? g->ym + g->h + GAP / 2 + 4
			                         : g->yb + BAND + GAP / 2 + 4,
			     "start", col, true, buf);
		}
		snprintf(buf, sizeof(buf), "returned %s %" PRIu64 " = 2^%u %s the "
		         "truth%s", g->field, v, x->offset_bits,
		         g->below ? "below" : "above", s64);
	} else {
		text(p, LEFT - 6, g->yb + BAND / 2 + 4, "end", "#444", true,
		     g->below ? "far below" : "far above");
		ly = g->yb + BAND / 2;
		zline(p, ly, col, true);
		snprintf(buf, sizeof(buf), "returned %s %" PRIu64 "%s: %s the truth "
		         "by %" PRIu64, g->field, v, s64, g->below ? "below" : "above",
		         g->below ? g->lo - v : v - g->hi);
	}
	bool left = arrow_x > (LEFT + RIGHT) / 2.0; /* clear of the arrow */
	text(p, left ? LEFT + 10 : RIGHT, ly - g->yb > BAND / 2 ? ly - 5 : ly + 14,
	     left ? "start" : "end", col, true, buf);
}

/* running > enabled: the two returned values against each other, each
 * where the truth had it. */
static void zoom_relation(struct tl *p, const struct zgeom *g)
{
	const struct sm_wrong *x = &p->res.wrong[0];
	uint64_t run = x->value, en = x->truth_lo;
	double yr = zy(g, run), ye = zy(g, en);
	char buf[200];

	zline(p, yr, C_RUNNING, false);
	zline(p, ye, C_ENABLED, true);
	snprintf(buf, sizeof(buf), "returned running %" PRIu64, run);
	text(p, RIGHT, yr - 5, "end", C_RUNNING, true, buf);
	snprintf(buf, sizeof(buf), "returned enabled %" PRIu64, en);
	text(p, RIGHT, ye + 14, "end", C_ENABLED, true, buf);
	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#d00\" stroke-width=\"4\"/>\n", LEFT + 4, yr, LEFT + 4,
	        ye);
	for (int which = 1; which <= 2; which++) {
		int i = zfind(p, which, which == 1 ? en : run);
		if (i >= 0)
			fprintf(p->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
			        "fill=\"none\" stroke=\"%s\" stroke-width=\"2\"><title>"
			        "the truth's %s was %" PRIu64 " here</title></circle>\n",
			        zx(p, zstep(p, (unsigned)i)), which == 1 ? ye : yr,
			        which == 1 ? C_ENABLED : C_RUNNING, names[which],
			        which == 1 ? en : run);
	}
}

/* Where the reader faulted, and what: nothing returned. */
static void zoom_fault(struct tl *p, const struct zgeom *g, double y,
                       double rowend[2])
{
	char buf[300], at[64] = "";
	double x = zx(p, (double)p->steps);

	fprintf(p->f, "<line class=\"tl-fault\" x1=\"%.1f\" y1=\"%.1f\" "
	        "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d00\" stroke-width=\"3\"/>\n",
	        x, y - 8, x, g->bottom + 6);
	if (p->res.has_pc)
		snprintf(at, sizeof(at), " at pc 0x%" PRIx64, p->res.fault_pc);
	if (p->res.has_addr)
		snprintf(at + strlen(at), sizeof(at) - strlen(at), ", address 0x%"
		         PRIx64, p->res.fault_addr);
	snprintf(buf, sizeof(buf), "FAULT after %" PRIu64 " instructions: %s%s; "
	         "nothing returned", p->steps, sm_fault_kind_text(p->res.fault),
	         at);
	row_label(p, x, y - 28, buf, "#d00", rowend, 2);
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
		text(p, zx(p, (double)t), y + 17, "middle", "#444", true, num);
		if (t > UINT64_MAX - st)
			break;
	}
	text(p, (LEFT + RIGHT) / 2.0, y + 33, "middle", "#000", false,
	     "instructions the reader executed (steps; one cycle each)");
}

/* The scale and bands of the zoom from the result's fields. */
static void zoom_geometry(struct tl *p, struct zgeom *g, double y)
{
	const struct sm_result *r = &p->res;
	uint64_t lo = UINT64_MAX, hi = 0;

	g->mode = zmode_of(r);
	for (unsigned i = 0; i < p->ncall; i++)
		for (int w = p->which; w <= (g->mode == Z_RELATION ? 2 : p->which);
		     w++) {
			uint64_t v = truth_of(&p->call_truth[i], w);
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	lo = p->ncall ? lo : 0;
	g->field = r->nwrong && r->wrong[0].field == SM_WF_SCALED
	           ? "scaled count" : names[p->shown];
	g->v = r->verdict == SM_V_WRONG_VALUE && r->nwrong ? r->wrong[0].value
	       : r->value[p->shown];
	if (g->mode == Z_RELATION) { /* both values drawn to scale */
		uint64_t a = r->wrong[0].truth_lo, b = r->wrong[0].value;
		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
	}
	if (g->mode == Z_VALUE) {
		/* a value with the top bit set against a truth without it is a
		 * negative s64: below; a near miss drawn to scale */
		bool neg = g->v >> 63 && !(hi >> 63);
		double span = (double)(hi - lo) + 1;
		if (!neg && g->v < lo && (double)(lo - g->v) <= 2 * span)
			lo = g->v;
		if (!neg && g->v > hi && (double)(g->v - hi) <= 2 * span)
			hi = g->v;
		g->below = neg || g->v < lo;
		g->off = neg || g->v < lo || g->v > hi;
	} else if (g->mode == Z_OFFSET) {
		g->below = !r->wrong[0].above;
		g->off = true;
	}
	g->lo = lo;
	g->hi = hi > lo ? hi : lo + 1;
	g->h = g->mode == Z_RELATION ? 120 : 90;
	g->ym = g->off && !g->below ? y + BAND + GAP : y;
	g->yb = !g->off ? 0 : g->below ? g->ym + g->h + GAP : y;
	g->bottom = g->off && g->below ? g->yb + BAND : g->ym + g->h;
}

/* The zoom's head, before the reader returns (v 0) and with the
 * verdict (1). */
static void zoom_head(struct tl *p, const struct zgeom *g, int v,
                      char *buf, size_t n)
{
	const char *w = names[p->which];
	if (g->mode == Z_RELATION)
		snprintf(buf, n, "The call, zoomed in: the true enabled and running "
		         "while the reader runs%s", v ? ", and the two it returned "
		         "against each other" : "");
	else if (!v || g->mode == Z_NONE)
		snprintf(buf, n, "The call, zoomed in: the true %s while the reader "
		         "runs", w);
	else if (g->mode == Z_FAULT)
		snprintf(buf, n, "The call, zoomed in: the true %s while the reader "
		         "runs, up to its fault (it returned nothing)", w);
	else
		snprintf(buf, n, "The call, zoomed in: the true %s while the reader "
		         "runs, and the %s it returned", w, g->field);
}

static void zoom(struct tl *p, const char *col)
{
	struct zgeom g = { 0 };
	double rowend[2] = { 0, 0 }, y;
	char buf[300];
	uint64_t wrap_at;

	zoom_geometry(p, &g, p->y + 72);
	for (int v = first_group(p); v < 2; v++) {
		zoom_head(p, &g, v, buf, sizeof(buf));
		group(p, v);
		text(p, 8, p->y + 12, "start", "#000", false, buf);
		if (v && g.mode == Z_RELATION) {
			const struct sm_wrong *x = &p->res.wrong[0];
			snprintf(buf, sizeof(buf), "running %" PRIu64 " > enabled %"
			         PRIu64 ": running is %" PRIu64 " ns more than enabled, "
			         "which the truth never is (an event cannot run longer "
			         "than it is enabled)", x->value, x->truth_lo,
			         x->value - x->truth_lo);
			text(p, 8, p->y + 27, "start", "#d00", true, buf);
		}
		group_end(p);
	}
	y = p->y + 72;
	snprintf(buf, sizeof(buf), "true %s", g.mode == Z_RELATION
	         ? "enabled" : names[p->which]);
	lane_label(p, g.ym + 40, buf, g.mode == Z_RELATION ? "and running"
	           : "during the call");
	value_axis(p, g.ym, g.h, g.lo, g.hi, p->which ? " ns" : "");
	for (unsigned k = 0; k < p->sched->n; k++) {
		double x = zx(p, (double)p->sched->item[k].step);
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n", x, y - 8, x,
		        g.bottom + 20, action_color[p->sched->item[k].kind]);
		row_label(p, x, y - 28, sm_action_name(p->sched->item[k].kind),
		          action_color[p->sched->item[k].kind], rowend, 2);
	}
	if (timer_wrap(p, &wrap_at) && wrap_at >= p->call_at &&
	    wrap_at - p->call_at <= p->steps) {
		double x = zx(p, (double)(wrap_at - p->call_at));
		grid_line(p, x, y - 8, x, g.bottom + 20, C_WRAP, wrap_attr);
		row_label(p, x, y - 28, "timer wraps", C_WRAP, rowend, 2);
	}
	zoom_curve(p, &g, p->which);
	if (g.mode == Z_RELATION)
		zoom_curve(p, &g, 2);
	group(p, true);
	if (g.mode == Z_VALUE || g.mode == Z_OFFSET)
		zoom_value(p, &g, col);
	else if (g.mode == Z_RELATION)
		zoom_relation(p, &g);
	else if (g.mode == Z_FAULT)
		zoom_fault(p, &g, y, rowend);
	else {
		if (p->res.nwrong) /* the values ABI's error return */
			snprintf(buf, sizeof(buf), "returned error %d",
			         (int)(int64_t)p->res.wrong[0].value);
		else
			snprintf(buf, sizeof(buf), "nothing returned (%s)",
			         sm_verdict_name(p->res.verdict));
		text(p, RIGHT, g.ym + 12, "end", col, true, buf);
	}
	group_end(p);
	for (unsigned i = 0; i < p->ntrap; i++)
		fprintf(p->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
		        "fill=\"#333\"/>\n", zx(p, (double)p->trap_step[i]),
		        g.bottom + 12);
	if (p->o->in_html)
		fprintf(p->f, "<line id=\"tl-zcursor\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
		        "y2=\"%.1f\" stroke=\"#000\" stroke-width=\"2\" data-x0=\"%d\" "
		        "data-x1=\"%d\"/>\n", LEFT, y - 6, LEFT, g.bottom + 18, LEFT,
		        RIGHT);
	text(p, LEFT - 6, g.bottom + 16, "end", "#333", true, "page loads, traps");
	zoom_steps_axis(p, g.bottom + 22);
	p->y = g.bottom + 22 + 44;
}

/* ---- legend --------------------------------------------------------- */

/* One legend entry at (*x, *y), flowing to the next row at the edge. */
static void entry(struct tl *p, double *x, const char *shape,
                  const char *color, const char *label)
{
	double w = 26 + text_w(label, 11) + 18;
	if (*x + w > W - 8) {
		*x = LEFT;
		p->y += 18;
	}
	double y = p->y;
	if (!strcmp(shape, "line") || !strcmp(shape, "dashed"))
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-width=\"3\"%s/>\n", *x, y - 4, *x + 20,
		        y - 4, color, shape[0] == 'd' ? " stroke-dasharray=\"6 3\"" : "");
	else if (!strcmp(shape, "tick"))
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-width=\"2\"/>\n", *x + 10, y - 11,
		        *x + 10, y + 3, color);
	else if (!strcmp(shape, "dot"))
		fprintf(p->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>"
		        "\n", *x + 10, y - 4, color);
	else if (!strcmp(shape, "ring"))
		fprintf(p->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"none\" "
		        "stroke=\"%s\" stroke-width=\"2\"/>\n", *x + 10, y - 4, color);
	else
		fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" "
		        "fill=\"%s\" opacity=\"0.55\"/>\n", *x, y - 9, color);
	text(p, *x + 26, y, "start", "#000", true, label);
	*x += w;
}

/* What the call's marks mean, with the verdict. */
static void legend_call(struct tl *p, double *x)
{
	enum zmode m = zmode_of(&p->res);
	const char *col = sm_verdict_fails(p->res.verdict) ? "#d00" : "#080";
	char what[64];

	group(p, true);
	if (m == Z_RELATION) {
		entry(p, x, "line", C_RUNNING, "running the reader returned");
		entry(p, x, "dashed", C_ENABLED, "enabled the reader returned");
		entry(p, x, "ring", "#555", "where the truth had that value");
	} else if (m == Z_FAULT) {
		entry(p, x, "line", "#d00", "where the reader faulted");
	} else if (m != Z_NONE) {
		snprintf(what, sizeof(what), "%s the reader returned",
		         p->res.nwrong && p->res.wrong[0].field == SM_WF_SCALED
		         ? "scaled count" : names[p->shown]);
		entry(p, x, "line", col, what);
	}
	group_end(p);
	entry(p, x, "dot", "#333", "a page load or trapped read");
}

static void legend(struct tl *p)
{
	double x = LEFT;
	uint64_t wrap_at;

	text(p, 8, p->y + 12, "start", "#000", false, "legend");
	p->y += 12;
	entry(p, &x, "line", C_COUNT, "true count");
	entry(p, &x, "line", C_ENABLED, "time_enabled");
	entry(p, &x, "line", C_RUNNING, "time_running");
	entry(p, &x, "rect", "#6a6", "on a counter (index = counter + 1)");
	entry(p, &x, "rect", "#ccc", "index 0: not on a counter");
	for (unsigned i = 0; i < p->nidx; i++) {
		char hex[24], name[80], label[120];
		if (!p->idx[i].index)
			continue;
		sm_index_short(p->s->cfg.arch, p->idx[i].index, hex, sizeof(hex));
		sm_index_counter(p->s->cfg.arch, p->idx[i].index, name,
		                 sizeof(name));
		snprintf(label, sizeof(label), "index %s: %s", hex, name);
		entry(p, &x, "rect", "#6a6", label);
	}
	for (int k = 0; k < SM_NACTIONS; k++)
		if (p->causes & (1u << k)) {
			char label[64];
			snprintf(label, sizeof(label), "page update: %s",
			         sm_action_name((enum sm_action_kind)k));
			entry(p, &x, "tick", action_color[k], label);
		}
	if (timer_wrap(p, &wrap_at))
		entry(p, &x, "dashed", C_WRAP, "where the timer wraps");
	if (p->have_call)
		legend_call(p, &x);
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
	p->y = 20 + 15 * wrap(p, 8, 20, W - 16, "#000", t);
}

static void body(struct tl *p)
{
	title(p);
	double top = p->y;
	truth_lanes(p);
	for (unsigned e = 0; e < p->s->cfg.nevents; e++)
		each_bar(p, e, measure_bar);
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
	for (unsigned i = 0; i < p->ngrid; i++)
		grid_put(f, p, &p->grid[i]);
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
