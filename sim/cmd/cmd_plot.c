/*
 * cmd_plot.c — `selfmon plot SCENARIO [--reader R] [--schedule S] -o F.svg`:
 * a timeline of a scenario as plain SVG.
 *
 * Owns: sampling the model over the scenario (the truth of the first
 * event: count, enabled, running; every event's page index; every page
 * update with its cause), optionally one reader call with its traps and
 * verdict, and drawing them as lanes.  The file is written whole or not
 * at all, and never replaces a device or a symlink (outfile.c).  It decides nothing about the kernel or the reader.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "action_filter.h"
#include "bundled.h"
#include "commands.h"
#include "options.h"
#include "run.h"
#include "explore.h"
#include "outfile.h"

#define NS 600          /* truth samples */
#define MAXU 2048       /* page updates drawn */
#define W 1100          /* drawing width */
#define LEFT 150

struct update {
	uint64_t at;
	int ev;
	uint32_t index;
	enum sm_action_kind why;
};

struct plot {
	const struct sm_scenario *s;
	uint64_t end;
	struct sm_truth truth[NS + 1];
	uint64_t t[NS + 1];
	struct update u[MAXU];
	unsigned nu;
	/* the reader's call */
	bool have_call;
	uint64_t call_at, steps;
	uint64_t trap_step[64];
	unsigned ntrap;
	uint64_t call_truth[NS];  /* the true count over the call */
	unsigned ncall;
	struct sm_result res;
	const char *reader;
	unsigned dropped;        /* scripted lines skipped (--drop-scripted) */
};

static void on_update(void *ctx, const void *model, int ev,
                      enum sm_action_kind why)
{
	struct plot *p = ctx;
	const struct sm_model *m = model;
	struct perf_event_mmap_page pc;

	if (p->nu == MAXU)
		return;
	sm_model_page_after(m, ev, &pc);
	p->u[p->nu++] = (struct update){ m->now - m->cfg.start, ev, pc.index,
	                                 why };
}

/* The model from 0 to end: timed actions at their cycle, samples. */
static int sample(struct plot *p, char *err, size_t n)
{
	static struct sm_model m;
	const struct sm_scenario *s = p->s;
	unsigned k = 0;

	if (sm_model_init(&m, &s->cfg, on_update, p, err, n) < 0)
		return -1;
	for (unsigned i = 0; i <= NS; i++) {
		uint64_t t = (uint64_t)((unsigned __int128)p->end * i / NS);
		if (sm_scenario_play(&m, s, &k, t, err, n) < 0)
			return -1;
		p->t[i] = m.now - s->cfg.start;
		sm_model_truth(&m, 0, &p->truth[i]);
	}
	if (m.capped) /* loading checked the scenario: a last resort */
		return snprintf(err, n, "the model hit its cap of model events "
		                "per run"), -1;
	return 0;
}

/* One call of the reader at check_at, with the schedule: its traps are
 * the observation points the engine records. */
static int call_reader(struct plot *p, const char *reader,
                       const struct sm_schedule *sch, char *err, size_t n)
{
	const struct sm_reader *r = sm_reader_find(reader);

	if (!r)
		return snprintf(err, n, "unknown reader '%s'", reader), -1;
	struct sm_session *s = sm_session_new();
	if (!s || sm_session_init(s, p->s, r, SM_ENGINE_UNICORN, err, n) < 0) {
		sm_session_free(s);
		return -1;
	}
	sm_run_schedule(s, sch);
	p->have_call = true;
	p->reader = r->name;
	p->call_at = p->s->check_at;
	p->steps = s->res.steps;
	p->res = s->res;
	for (unsigned i = 0; i < s->run.npoints && p->ntrap < 64; i++)
		p->trap_step[p->ntrap++] = s->points[i];
	for (unsigned i = 0; i < s->run.nsamples; i++) /* spread over NS */
		p->call_truth[(uint64_t)i * (NS - 1) / (s->run.nsamples ? s->run.nsamples : 1)] =
			s->samples[i].count;
	p->ncall = NS;
	sm_session_free(s);
	return 0;
}

/* ---- drawing -------------------------------------------------------- */

static double xof(const struct plot *p, uint64_t t)
{
	return LEFT + (double)(W - LEFT - 20) * (double)t /
	              (double)(p->end ? p->end : 1);
}

static void text(FILE *f, double x, double y, const char *anchor,
                 const char *color, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\">",
	        x, y, anchor, color);
	for (; *s; s++)
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	fputs("</text>\n", f);
}

/* One curve of the truth in a lane [y0, y0 + h]. */
static void curve(FILE *f, const struct plot *p, size_t field, double y0,
                  double h, const char *color)
{
	uint64_t hi = 1;
	for (unsigned i = 0; i <= NS; i++) {
		uint64_t v = ((const uint64_t *)&p->truth[i])[field];
		if (v > hi)
			hi = v;
	}
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
	        "points=\"", color);
	for (unsigned i = 0; i <= NS; i++) {
		uint64_t v = ((const uint64_t *)&p->truth[i])[field];
		fprintf(f, "%.1f,%.1f ", xof(p, p->t[i]),
		        y0 + h - h * (double)v / (double)hi);
	}
	fputs("\"/>\n", f);
	char buf[64];
	snprintf(buf, sizeof(buf), "max %" PRIu64, hi);
	text(f, W - 20, y0 + 12, "end", color, buf);
}

static const char *const action_color[SM_NACTIONS] = {
	[SM_ACT_MMAP] = "#555", [SM_ACT_ENABLE] = "#2a7",
	[SM_ACT_DISABLE] = "#a52", [SM_ACT_ROTATE_OUT] = "#c60",
	[SM_ACT_ROTATE_IN] = "#06c", [SM_ACT_ROTATE] = "#80c",
	[SM_ACT_OVERFLOW] = "#d00", [SM_ACT_PREEMPT] = "#888",
	[SM_ACT_MIGRATE] = "#0aa", [SM_ACT_RESET] = "#e0a",
	[SM_ACT_STALL] = "#999", [SM_ACT_PERIOD] = "#770",
	[SM_ACT_CLOCK_EPOCH] = "#470", [SM_ACT_READ] = "#333",
};

static void lane_label(FILE *f, double y, const char *label)
{
	text(f, 10, y, "start", "#000", label);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#ddd\"/>\n", LEFT, y + 6, W - 20, y + 6);
}

/* The call, zoomed: the true count at every instant (blue), the count
 * the reader returned (its colour: green pass, red fail; clamped to the
 * lane when far off), its observation points. */
static void zoom(FILE *f, const struct plot *p, double y, const char *col)
{
	double h = 80, x0 = LEFT, x1 = W - 20;
	uint64_t lo = ~0ull, hi = 0, v = p->res.value[0];

	for (unsigned i = 0; i < p->ncall; i++) {
		if (p->call_truth[i] < lo)
			lo = p->call_truth[i];
		if (p->call_truth[i] > hi)
			hi = p->call_truth[i];
	}
	if (hi == lo)
		hi = lo + 1;
	lane_label(f, y + h / 2, "the call, zoomed");
	fprintf(f, "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" "
	        "points=\"");
	uint64_t last = lo;
	for (unsigned i = 0; i < p->ncall; i++) {
		uint64_t c = p->call_truth[i] ? p->call_truth[i] : last;
		last = c;
		fprintf(f, "%.1f,%.1f ", x0 + (x1 - x0) * i / (p->ncall - 1),
		        y + h - h * (double)(c - lo) / (double)(hi - lo));
	}
	fputs("\"/>\n", f);
	double vy = v < lo ? y + h + 6 : v > hi ? y - 6
	            : y + h - h * (double)(v - lo) / (double)(hi - lo);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	        "stroke=\"%s\" stroke-width=\"3\"/>\n", x0, vy, x1, vy, col);
	char buf[96];
	snprintf(buf, sizeof(buf), "returned %" PRIu64 "%s", v,
	         v < lo ? " (far below)" : v > hi ? " (far above)" : "");
	text(f, x1, vy - 4, "end", col, buf);
	for (unsigned i = 0; i < p->ntrap; i++)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n",
		        x0 + (x1 - x0) * (double)p->trap_step[i] /
		                 (double)(p->steps ? p->steps : 1), y + h + 14, col);
	snprintf(buf, sizeof(buf), "truth %" PRIu64 "..%" PRIu64 "; dots: page "
	         "loads and traps", lo, hi);
	text(f, x0, y + h + 30, "start", "#1f77b4", buf);
}

static void draw(FILE *f, const struct plot *p)
{
	const struct sm_config *c = &p->s->cfg;
	double y = 40, h = 90;
	unsigned nev = c->nevents;
	double height = 60 + 3 * (h + 30) + nev * 40 + 120 +
	                (p->have_call ? 160 : 0);

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	        "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W,
	        height);
	char title[400];
	const char *base = strrchr(p->s->name, '/');
	snprintf(title, sizeof(title), "%s (%s): truth of %s, pages, kernel "
	         "actions%s", base ? base + 1 : p->s->name, sm_arch_name(c->arch),
	         c->event[0].name, p->dropped ? " (some scripted lines skipped: "
	         "--drop-scripted)" : "");
	text(f, 10, 20, "start", "#000", title);
	static const char *const lanes[3] = { "true count", "enabled (ns)",
	                                      "running (ns)" };
	static const char *const colors[3] = { "#1f77b4", "#2ca02c", "#ff7f0e" };
	for (size_t k = 0; k < 3; k++, y += h + 30) {
		lane_label(f, y + h / 2, lanes[k]);
		curve(f, p, k, y, h, colors[k]);
	}
	/* each event's index over time, and its page updates as ticks */
	for (unsigned e = 0; e < nev; e++, y += 40) {
		char label[64];
		snprintf(label, sizeof(label), "%s index", c->event[e].name);
		lane_label(f, y + 10, label);
		uint32_t cur = 0;
		uint64_t from = 0;
		for (unsigned i = 0; i <= p->nu; i++) {
			bool last = i == p->nu;
			if (!last && p->u[i].ev != (int)e)
				continue;
			uint64_t at = last ? p->end : p->u[i].at;
			if (at > from || last) {
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				        "height=\"12\" fill=\"%s\" opacity=\"0.5\"/>\n",
				        xof(p, from), y, xof(p, at) - xof(p, from) + 0.5,
				        cur ? "#6a6" : "#ccc");
				if (cur && xof(p, at) - xof(p, from) > 40) {
					char v[32];
					snprintf(v, sizeof(v), "%u", cur);
					text(f, xof(p, from) + 3, y + 10, "start", "#000", v);
				}
			}
			if (last)
				break;
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"%s\" stroke-width=\"2\"><title>%s</title>"
			        "</line>\n", xof(p, at), y - 4, xof(p, at), y + 16,
			        action_color[p->u[i].why], sm_action_name(p->u[i].why));
			cur = p->u[i].index;
			from = at;
		}
	}
	/* the scenario's timed actions */
	y += 10;
	lane_label(f, y + 10, "kernel actions");
	for (unsigned k = 0; k < p->s->nactions; k++) {
		const struct sm_timed_action *a = &p->s->act[k];
		double x = xof(p, a->at);
		fprintf(f, "<line x1=\"%.1f\" y1=\"40\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n", x, x, y + 14,
		        action_color[a->act.kind]);
		text(f, x + 2, y + 12 + 12 * (k % 2), "start",
		     action_color[a->act.kind], sm_action_name(a->act.kind));
	}
	y += 40;
	if (p->have_call) {
		bool bad = sm_verdict_fails(p->res.verdict);
		const char *col = bad ? "#d00" : "#080";
		double x0 = xof(p, p->call_at), x1 = xof(p, p->call_at + p->steps);
		fprintf(f, "<rect x=\"%.1f\" y=\"40\" width=\"%.1f\" height=\"%.1f\" "
		        "fill=\"%s\" opacity=\"0.15\"/>\n", x0 - 2, x1 - x0 + 4,
		        y - 40, col);
		for (unsigned i = 0; i < p->ntrap; i++) {
			double x = xof(p, p->call_at + p->trap_step[i]);
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
			        x, y - 8, col);
		}
		char line[800];
		snprintf(line, sizeof(line), "%s read at %" PRIu64 " (%" PRIu64
		         " steps): %s, returned count %" PRIu64 " — %s", p->reader,
		         p->call_at, p->steps, sm_verdict_name(p->res.verdict),
		         p->res.value[0], p->res.detail);
		text(f, 10, y + 12, "start", col, line);
		zoom(f, p, y + 40, col);
	}
	fputs("</svg>\n", f);
}

static const char usage[] =
	"usage: selfmon plot SCENARIO [--reader R] [--schedule ACTIONS] -o FILE\n\n"
	"Draws SCENARIO as an SVG timeline: the first event's true count,\n"
	"enabled and running; every event's page index over time with each page\n"
	"update as a tick coloured by its cause; the scenario's kernel actions.\n"
	"With --reader, one call of that built-in reader at the scenario's\n"
	"'check at=' instant (with ACTIONS injected, e.g. reset@12,overflow@30)\n"
	"is drawn over it: its observation points and its verdict.\n\n"
	SM_ACTION_FILTER_USAGE;

enum { O_READER = SM_OPT_LONG, O_SCHEDULE };

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ NULL, required_argument, 'o', "a FILE" },
	{ "reader", required_argument, O_READER, NULL },
	{ "schedule", required_argument, O_SCHEDULE, NULL },
	SM_ACTION_FILTER_OPTIONS,
	{ 0 },
};

struct args {
	const char *path, *out, *reader, *sched;
	struct sm_action_filter af;
};

/* The operand and options: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct args *a)
{
	struct sm_opt op;
	char err[160];
	int c, rc = 0;

	sm_opt_init(&op, "plot", argc, argv, options);
	while ((c = sm_opt_next(&op)) != -1) {
		if (c == 'h')
			return fputs(usage, stdout), 0;
		else if (c == SM_OPT_BAD)
			return 2;
		else if (c == 'o')
			a->out = op.arg;
		else if (c == O_READER)
			a->reader = op.arg;
		else if (c == O_SCHEDULE)
			a->sched = op.arg;
		else if (c != SM_OPT_OPERAND)
			rc = sm_action_filter_opt(&a->af, c, op.arg, err, sizeof(err));
		else if (a->path)
			return usage_error("plot: unexpected argument '%s'", op.arg);
		else
			a->path = op.arg;
		if (rc < 0)
			return usage_error("plot: %s", err);
	}
	if (!a->path || !a->out)
		return usage_error("plot: needs SCENARIO and -o FILE.svg");
	return -1;
}

int cmd_plot(int argc, char **argv)
{
	static struct plot p;
	static struct sm_scenario scn;
	struct args a = { 0 };
	char err[1024];
	int rc = parse_args(argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (sm_scenario_open(a.path, &scn, err, sizeof(err)) < 0)
		return usage_error("%s", err);
	memset(&p, 0, sizeof(p));
	p.dropped = sm_action_filter_apply(&a.af, &scn, NULL);
	p.s = &scn;
	p.end = scn.end > scn.check_at ? scn.end
	        : scn.check_at > UINT64_MAX - 200 ? UINT64_MAX : scn.check_at + 200;
	struct sm_schedule_line sl;
	memset(&sl, 0, sizeof(sl));
	if (a.sched) {
		char *line = malloc(strlen(a.sched) + 32);
		if (!line)
			return usage_error("plot: out of memory");
		sprintf(line, "x86_64:unicorn:r:s:%s", a.sched);
		rc = sm_schedule_parse(line, &sl, err, sizeof(err));
		free(line);
		if (rc < 0)
			return usage_error("plot: %s", err);
		for (unsigned k = 0; k < sl.sched.n; k++)
			if (sm_action_filter_excludes(&a.af, sl.sched.item[k].kind)) {
				sm_schedule_line_free(&sl);
				return usage_error("plot: --schedule has %s, which "
				                   "--actions/--without leave out",
				                   sm_action_name(sl.sched.item[k].kind));
			}
	}
	rc = sample(&p, err, sizeof(err)) < 0 ? 1
	         : a.reader && call_reader(&p, a.reader, &sl.sched, err,
	                                 sizeof(err)) < 0 ? 2 : 0;
	sm_schedule_line_free(&sl);
	if (rc)
		return rc == 1 ? usage_error("plot: %s: %s", a.path, err)
		               : usage_error("plot: %s", err);
	static struct sm_out o;
	if (sm_out_open(&o, a.out, err, sizeof(err)) < 0)
		return usage_error("plot: %s: %s", a.out, err);
	draw(o.f, &p);
	if (sm_out_close(&o, err, sizeof(err)) < 0)
		return usage_error("plot: %s: %s", a.out, err);
	return 0;
}
