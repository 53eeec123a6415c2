/*
 * timeline.c — the timeline picture (see timeline.h): the model sampled
 * over the scenario, the reader's call replayed, and the lanes, caption,
 * legend and picture drawn from them; the call's zoom is tl_zoom.c's,
 * the shared drawing tl_draw.c's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "run.h"
#include "notation.h"
#include "markup.h"
#include "timeline.h"
#include "tl_draw.h"

static void on_update(void *ctx, const void *model, int ev,
                      enum sm_action_kind why)
{
	struct tl *p = ctx;
	const struct sm_model *m = model;
	struct perf_event_mmap_page pc;

	if (p->nu == MAXU)
		return;
	sm_model_page_after(m, ev, &pc);
	p->u[p->nu++] = (struct update){ sm_model_now(m) - sm_model_config(m)->start, ev, pc.index,
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
		p->t[i] = sm_model_now(m) - s->cfg.start;
		sm_model_truth(m, 0, &p->truth[i]);
	}
	if (!rc && sm_model_capped(m)) { /* loading checked the scenario: last resort */
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

/* ---- scales --------------------------------------------------------- */

static double xof(const struct tl *p, uint64_t t)
{
	return LEFT + (double)(RIGHT - LEFT) * (double)t /
	              (double)(p->end ? p->end : 1);
}

/* ---- lanes ---------------------------------------------------------- */




static void curve(struct tl *p, int which, double y0, double h, uint64_t hi,
                  const char *color, int width)
{
	fprintf(p->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" "
	        "points=\"", color, width);
	for (unsigned i = 0; i <= NS; i++)
		fprintf(p->f, "%.1f,%.1f ", xof(p, p->t[i]), y0 + h - h *
		        (double)tl_truth_of(&p->truth[i], which) / (double)hi);
	fputs("\"/>\n", p->f);
}

static uint64_t highest(const struct tl *p, int which)
{
	uint64_t hi = 0;
	for (unsigned i = 0; i <= NS; i++)
		if (tl_truth_of(&p->truth[i], which) > hi)
			hi = tl_truth_of(&p->truth[i], which);
	return hi;
}

/* The true count, then enabled and running on one scale. */
static void truth_lanes(struct tl *p)
{
	double h = 80;
	uint64_t hi = highest(p, 0), st;

	p->y += 10;
	st = tl_ticks(hi ? hi : 1, 4);
	hi = (hi / st + (hi % st != 0)) * st;
	hi = hi ? hi : 1;
	tl_lane_label(p, p->y + 30, "true count", "events counted");
	tl_value_axis(p, p->y, h, 0, hi, "");
	curve(p, 0, p->y, h, hi, C_COUNT, 2);
	p->y += h + 30;
	hi = highest(p, 1) > highest(p, 2) ? highest(p, 1) : highest(p, 2);
	st = tl_ticks(hi ? hi : 1, 4);
	hi = (hi / st + (hi % st != 0)) * st;
	hi = hi ? hi : 1;
	tl_lane_label(p, p->y + 30, "enabled, running", "time, ns (as read(2))");
	tl_value_axis(p, p->y, h, 0, hi, " ns");
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
	if (l && w > tl_text_w(hex, 11) + 8 && w < l->narrowest)
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
	if (!l || x1 - x0 <= tl_text_w(hex, 11) + 8)
		return;
	snprintf(attr, sizeof(attr), " class=\"idx\" data-index=\"%s\"", hex);
	tl_text_attr(p, x0 + 4, y + 11, "start", "#000", true, attr,
	          l->narrowest > tl_text_w(mid, 11) + 8 ? mid : hex);
}

static void index_lane(struct tl *p, unsigned e)
{
	char label[80];

	snprintf(label, sizeof(label), "%s", p->s->cfg.event[e].name);
	tl_lane_label(p, p->y + 11, label, "page index");
	each_bar(p, e, index_bar);
	for (unsigned i = 0; i < p->nu; i++) {
		if (p->u[i].ev != (int)e)
			continue;
		double x = xof(p, p->u[i].at);
		p->causes |= 1u << p->u[i].why;
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-width=\"2\"><title>page update: %s"
		        "</title></line>\n", x, p->y - 4, x, p->y + 18,
		        sm_action_desc(p->u[i].why)->colour, sm_action_name(p->u[i].why));
	}
	p->y += 34;
}

/* A mark in the kernel-actions lane: a tick and its label. */
static void lane_mark(struct tl *p, double x, const char *label,
                      const char *color, double rowend[4], double top)
{
	fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	        "stroke=\"%s\" stroke-width=\"2\"/>\n", x, top, x, top + 10,
	        color);
	tl_row_label(p, x, top + 22, label, color, rowend, 4);
}

static void action_mark(struct tl *p, double x, enum sm_action_kind k,
                        const char *suffix, double rowend[4], double top)
{
	char label[64];
	snprintf(label, sizeof(label), "%s%s", sm_action_name(k), suffix);
	p->causes |= 1u << k;
	lane_mark(p, x, label, sm_action_desc(k)->colour, rowend, top);
}

static void wrap_text(const struct tl *p, char *buf, size_t n)
{
	const struct sm_config *c = &p->s->cfg;
	snprintf(buf, n, "timer wraps: %s 2^%u - 1 -> 0",
	         c->arch == SM_ARM64 ? "CNTVCT_EL0" : "time CSR", c->timer_width);
}


/* Every page update's cause (once per instant), the scenario's timed
 * actions that wrote nothing, the actions injected into the call, and
 * where the timer wraps. */
static void actions_lane(struct tl *p)
{
	double rowend[4] = { 0, 0, 0, 0 }, top = p->y;
	uint64_t wrap_at;
	char label[80];

	tl_lane_label(p, top + 11, "kernel actions", "each page update's cause");
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
	if (tl_timer_wrap(p, &wrap_at)) {
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
	uint64_t st = tl_ticks(p->end ? p->end : 1, 8), wrap_at;
	char num[32];

	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#444\"/>\n", LEFT, p->y, RIGHT, p->y);
	for (uint64_t t = 0; t <= p->end; t += st) {
		double x = xof(p, t);
		tl_grid(p, x, top, x, p->y, "#f0f0f0");
		fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#444\"/>\n", x, p->y, x, p->y + 5);
		tl_grouped(t, num, sizeof(num));
		tl_text(p, x, p->y + 17, "middle", "#444", true, num);
		if (t > UINT64_MAX - st)
			break;
	}
	if (tl_timer_wrap(p, &wrap_at))
		tl_grid_line(p, xof(p, wrap_at), top, xof(p, wrap_at), p->y, C_WRAP,
		          tl_wrap_attr);
	tl_text(p, (LEFT + RIGHT) / 2.0, p->y + 33, "middle", "#000", false,
	     "time: cycles since the scenario began (the model runs one cycle "
	     "per reader instruction)");
	p->y += 44;
}

/* The call's band over the lanes, with the cursor of the HTML page. */
static void call_band(struct tl *p, double top, double bottom)
{
	bool bad = sm_verdict_fails(p->res.verdict);
	double x0 = xof(p, p->call_at), x1 = xof(p, p->call_at + p->steps);

	for (int v = tl_first_group(p); v < 2; v++) {
		const char *col = !v ? "#888" : bad ? "#d00" : "#080";
		tl_group(p, v);
		fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		        "height=\"%.1f\" fill=\"%s\" opacity=\"0.15\"/>\n", x0 - 2,
		        top, x1 - x0 + 4, bottom - top, col);
		bool right = x1 + 90 > W - 8;
		tl_text(p, right ? x0 - 4 : x1 + 4, top + 10, right ? "end" : "start",
		     col, true, "the reader's call");
		tl_group_end(p);
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

	tl_grouped(p->call_at, num, sizeof(num));
	if (!returned(&p->res))
		snprintf(got, sizeof(got), "nothing");
	else if (p->reader->abi == SM_ABI_TIMES ||
	         p->reader->abi == SM_ABI_VALUES || p->reader->abi == SM_ABI_RESET)
		snprintf(got, sizeof(got), "count %" PRIu64 ", enabled %" PRIu64
		         ", running %" PRIu64, p->res.value[0], p->res.value[1],
		         p->res.value[2]);
	else
		snprintf(got, sizeof(got), "count %" PRIu64, p->res.value[0]);
	for (int v = tl_first_group(p); v < 2; v++) {
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
		tl_group(p, v);
		unsigned k = tl_wrap(p, 8, p->y + 12, W - 16, !v ? "#444" : bad
		                  ? "#d00" : "#080", line);
		tl_group_end(p);
		lines = k > lines ? k : lines;
	}
	p->y += 15 * lines + 8;
}

/* ---- legend --------------------------------------------------------- */

/* One legend entry at (*x, *y), flowing to the next row at the edge. */
static void entry(struct tl *p, double *x, const char *shape,
                  const char *color, const char *label)
{
	double w = 26 + tl_text_w(label, 11) + 18;
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
	tl_text(p, *x + 26, y, "start", "#000", true, label);
	*x += w;
}

/* What the call's marks mean, with the verdict. */
static void legend_call(struct tl *p, double *x)
{
	enum tl_zmode m = tl_zmode(&p->res);
	const char *col = sm_verdict_fails(p->res.verdict) ? "#d00" : "#080";
	char what[64];

	tl_group(p, true);
	if (m == Z_RELATION) {
		entry(p, x, "line", C_RUNNING, "running the reader returned");
		entry(p, x, "dashed", C_ENABLED, "enabled the reader returned");
		entry(p, x, "ring", "#555", "where the truth had that value");
	} else if (m == Z_FAULT) {
		entry(p, x, "line", "#d00", "where the reader faulted");
	} else if (m != Z_NONE) {
		snprintf(what, sizeof(what), "%s the reader returned",
		         p->res.nwrong && p->res.wrong[0].field == SM_WF_SCALED
		         ? "scaled count" : tl_names[p->shown]);
		entry(p, x, "line", col, what);
	}
	tl_group_end(p);
	entry(p, x, "dot", "#333", "a page load or trapped read");
}

static void legend(struct tl *p)
{
	double x = LEFT;
	uint64_t wrap_at;

	tl_text(p, 8, p->y + 12, "start", "#000", false, "legend");
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
			entry(p, &x, "tick", sm_action_desc(k)->colour, label);
		}
	if (tl_timer_wrap(p, &wrap_at))
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
	p->y = 20 + 15 * tl_wrap(p, 8, 20, W - 16, "#000", t);
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
		tl_zoom(p, sm_verdict_fails(p->res.verdict) ? "#d00" : "#080");
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
		tl_grid_put(f, p, &p->grid[i]);
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
