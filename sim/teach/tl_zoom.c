/*
 * tl_zoom.c — the reader's call zoomed in, under the timeline (see
 * tl_draw.h): the truth while the reader runs against what the judged
 * result's fields say it returned.  A value 2^k off the truth is drawn as
 * that offset, in a band below (above) the truth's at the level it is off
 * from; running > enabled as the two returned values against each other,
 * each where the truth had it; a FAULT as where and what faulted, with no
 * value.
 *
 * Owns the zoom's layout only; the result is the oracle's and the
 * engines' (result.h), read, never recomputed.
 */
#include <inttypes.h>
#include <string.h>

#include "tl_draw.h"

enum tl_zmode tl_zmode(const struct sm_result *r)
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
	enum tl_zmode mode;
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
		        zy(g, tl_truth_of(&p->call_truth[i], which)));
	fputs("\"/>\n", p->f);
}

/* The first sample whose truth in `which` (or the page's rounding of a
 * time) is v: its index, or -1. */
static int zfind(const struct tl *p, int which, uint64_t v)
{
	for (unsigned i = 0; i < p->ncall; i++) {
		const struct sm_truth *t = &p->call_truth[i];
		if (tl_truth_of(t, which) == v || (which == 1 && t->enabled_pub == v) ||
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
		tl_text(p, RIGHT - 6, vy < g->ym + 20 ? vy + 14 : vy - 5, "end", col, true,
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
		tl_text(p, LEFT - 6, g->yb + BAND / 2 + 4, "end", "#444", true, buf);
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
			tl_text(p, xx + 5, g->below ? g->ym + g->h + GAP / 2 + 4
			                         : g->yb + BAND + GAP / 2 + 4,
			     "start", col, true, buf);
		}
		snprintf(buf, sizeof(buf), "returned %s %" PRIu64 " = 2^%u %s the "
		         "truth%s", g->field, v, x->offset_bits,
		         g->below ? "below" : "above", s64);
	} else {
		tl_text(p, LEFT - 6, g->yb + BAND / 2 + 4, "end", "#444", true,
		     g->below ? "far below" : "far above");
		ly = g->yb + BAND / 2;
		zline(p, ly, col, true);
		snprintf(buf, sizeof(buf), "returned %s %" PRIu64 "%s: %s the truth "
		         "by %" PRIu64, g->field, v, s64, g->below ? "below" : "above",
		         g->below ? g->lo - v : v - g->hi);
	}
	bool left = arrow_x > (LEFT + RIGHT) / 2.0; /* clear of the arrow */
	tl_text(p, left ? LEFT + 10 : RIGHT - 6, ly - g->yb > BAND / 2 ? ly - 5 : ly + 14,
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
	tl_text(p, RIGHT - 6, yr - 5, "end", C_RUNNING, true, buf);
	snprintf(buf, sizeof(buf), "returned enabled %" PRIu64, en);
	tl_text(p, RIGHT - 6, ye + 14, "end", C_ENABLED, true, buf);
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
			        which == 1 ? C_ENABLED : C_RUNNING, tl_names[which],
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
	tl_row_label(p, x, y - 28, buf, "#d00", rowend, 2);
}

static void zoom_steps_axis(struct tl *p, double y)
{
	uint64_t st = tl_ticks(p->steps ? p->steps : 1, 8);
	char num[32];

	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#444\"/>\n", LEFT, y, RIGHT, y);
	for (uint64_t t = 0; t <= p->steps; t += st) {
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#444\"/>\n", zx(p, (double)t), y, zx(p, (double)t),
		        y + 5);
		tl_grouped(t, num, sizeof(num));
		tl_text(p, zx(p, (double)t), y + 17, "middle", "#444", true, num);
		if (t > UINT64_MAX - st)
			break;
	}
	tl_text(p, (LEFT + RIGHT) / 2.0, y + 33, "middle", "#000", false,
	     "instructions the reader executed (steps; one cycle each)");
}

/* The scale and bands of the zoom from the result's fields. */
static void zoom_geometry(struct tl *p, struct zgeom *g, double y)
{
	const struct sm_result *r = &p->res;
	uint64_t lo = UINT64_MAX, hi = 0;

	g->mode = tl_zmode(r);
	for (unsigned i = 0; i < p->ncall; i++)
		for (int w = p->which; w <= (g->mode == Z_RELATION ? 2 : p->which);
		     w++) {
			uint64_t v = tl_truth_of(&p->call_truth[i], w);
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	lo = p->ncall ? lo : 0;
	g->field = r->nwrong && r->wrong[0].field == SM_WF_SCALED
	           ? "scaled count" : tl_names[p->shown];
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
	const char *w = tl_names[p->which];
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

void tl_zoom(struct tl *p, const char *col)
{
	struct zgeom g = { 0 };
	double rowend[2] = { 0, 0 }, y;
	char buf[300];
	uint64_t wrap_at;

	zoom_geometry(p, &g, p->y + 72);
	for (int v = tl_first_group(p); v < 2; v++) {
		zoom_head(p, &g, v, buf, sizeof(buf));
		tl_group(p, v);
		tl_text(p, 8, p->y + 12, "start", "#000", false, buf);
		if (v && g.mode == Z_RELATION) {
			const struct sm_wrong *x = &p->res.wrong[0];
			snprintf(buf, sizeof(buf), "running %" PRIu64 " > enabled %"
			         PRIu64 ": running is %" PRIu64 " ns more than enabled, "
			         "which the truth never is (an event cannot run longer "
			         "than it is enabled)", x->value, x->truth_lo,
			         x->value - x->truth_lo);
			tl_text(p, 8, p->y + 27, "start", "#d00", true, buf);
		}
		tl_group_end(p);
	}
	y = p->y + 72;
	snprintf(buf, sizeof(buf), "true %s", g.mode == Z_RELATION
	         ? "enabled" : tl_names[p->which]);
	tl_lane_label(p, g.ym + 40, buf, g.mode == Z_RELATION ? "and running"
	           : "during the call");
	tl_value_axis(p, g.ym, g.h, g.lo, g.hi, p->which ? " ns" : "");
	for (unsigned k = 0; k < p->sched->n; k++) {
		double x = zx(p, (double)p->sched->item[k].step);
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n", x, y - 8, x,
		        g.bottom + 20, sm_action_desc(p->sched->item[k].kind)->colour);
		tl_row_label(p, x, y - 28, sm_action_name(p->sched->item[k].kind),
		          sm_action_desc(p->sched->item[k].kind)->colour, rowend, 2);
	}
	if (tl_timer_wrap(p, &wrap_at) && wrap_at >= p->call_at &&
	    wrap_at - p->call_at <= p->steps) {
		double x = zx(p, (double)(wrap_at - p->call_at));
		tl_grid_line(p, x, y - 8, x, g.bottom + 20, C_WRAP, tl_wrap_attr);
		tl_row_label(p, x, y - 28, "timer wraps", C_WRAP, rowend, 2);
	}
	zoom_curve(p, &g, p->which);
	if (g.mode == Z_RELATION)
		zoom_curve(p, &g, 2);
	tl_group(p, true);
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
		tl_text(p, RIGHT - 6, g.ym + 12, "end", col, true, buf);
	}
	tl_group_end(p);
	for (unsigned i = 0; i < p->ntrap; i++)
		fprintf(p->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
		        "fill=\"#333\"/>\n", zx(p, (double)p->trap_step[i]),
		        g.bottom + 12);
	if (p->o->in_html)
		fprintf(p->f, "<line id=\"tl-zcursor\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
		        "y2=\"%.1f\" stroke=\"#000\" stroke-width=\"2\" data-x0=\"%d\" "
		        "data-x1=\"%d\"/>\n", LEFT, y - 6, LEFT, g.bottom + 18, LEFT,
		        RIGHT);
	tl_text(p, LEFT - 6, g.bottom + 16, "end", "#333", true, "page loads, traps");
	zoom_steps_axis(p, g.bottom + 22);
	p->y = g.bottom + 22 + 44;
}
