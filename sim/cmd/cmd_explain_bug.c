/*
 * cmd_explain_bug.c — `selfmon explain-bug NAME`: for a reader of the
 * corpus, its minimal failing schedule with the --explain listing, and a
 * paragraph on the fault and the fix; for a user's PATH:SYMBOL (--abi),
 * the same listing and the corpus fault its failure looks like.
 *
 * Owns: the search for the shortest counterexample among the bundled
 * scenarios and the page it prints (--html FILE: also the page to step
 * through it, sim/teach/).  The fault and fix texts are the
 * corpus table's (reader/variants/list.h, through struct sm_reader); the
 * likeness is lookalike.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action_filter.h"
#include "bundled.h"
#include "commands.h"
#include "options.h"
#include "explain.h"
#include "explore.h"
#include "lookalike.h"
#include "reader_arg.h"
#include "replay.h"
#include "teach.h"

static void paragraph(const char *label, const char *text)
{
	printf("%s: ", label);
	unsigned col = (unsigned)strlen(label) + 2;
	for (const char *w = text; *w;) {
		size_t n = strcspn(w, " ");
		if (col + n > 76) {
			printf("\n  ");
			col = 2;
		}
		printf("%.*s", (int)n, w);
		col += (unsigned)n;
		w += n;
		if (*w == ' ') {
			putchar(' ');
			col++;
			w++;
		}
	}
	putchar('\n');
}

struct best {
	char *scenario;            /* the bundled name (owned) */
	struct sm_scenario scn;
	struct sm_cell cell;
	bool found;
	unsigned left_out;         /* the action filter's effect on it */
	bool foreign;
};

/* Explore one scenario for r: true with *cell when it fails. */
static bool fails_in(const struct sm_reader *r, struct sm_scenario *scn,
                     struct sm_cell *cell)
{
	struct sm_explore_opts o = { .bound = SM_DEFAULT_BOUND };
	char err[512];
	struct sm_session *s = sm_session_new();

	if (!s || sm_session_init(s, scn, r, SM_ENGINE_UNICORN, err,
	                          sizeof(err)) < 0) {
		sm_session_free(s);
		return false;
	}
	sm_explore(s, &o, cell);
	sm_session_free(s);
	return sm_verdict_fails(cell->verdict);
}

/* The bundled scenario (in name order) with the shortest minimised
 * counterexample, the user's action filter applied to each: 0, or -1
 * out of memory. */
static int search(const struct sm_reader *r, enum sm_arch arch,
                  const struct sm_action_filter *af, struct best *b,
                  struct sm_scenario *scn)
{
	char **names, err[1024];
	int n = sm_bundled_names(&names);
	struct sm_cell cell;

	b->found = false;
	for (int i = 0; i < n; i++) {
		if (sm_scenario_open(names[i], scn, err, sizeof(err)) < 0 ||
		    scn->cfg.arch != arch || scn->expect >= 0)
			continue; /* a kernel hazard explains no reader's bug */
		unsigned dropped, own = scn->explore;
		unsigned lines = sm_action_filter_apply(af, scn, &dropped);
		if (!fails_in(r, scn, &cell) ||
		    (b->found && cell.min.n >= b->cell.min.n))
			continue;
		free(b->scenario);
		b->scenario = names[i];
		names[i] = NULL;
		b->scn = *scn;
		b->cell = cell;
		b->cell.min.dropped = dropped;
		b->found = true;
		b->left_out = own & ~scn->explore;
		b->foreign = (scn->explore & ~own) || lines;
	}
	sm_names_free(names, n);
	return n < 0 ? -1 : 0;
}

static const char usage[] =
	"usage: selfmon explain-bug NAME [options]\n\nFor a reader of the corpus "
	"(see 'selfmon list'): its shortest failing\nschedule over the bundled "
	"scenarios, the step-by-step listing of it, and\nwhat the fault is and "
	"how to fix it.  --html FILE also writes a page to step through it in\n"
	"a browser.  NAME may be your PATH:SYMBOL with --abi (as check takes\n"
	"it): then the corpus fault whose failure there looks like yours, and\n"
	"its fix.\n\n" SM_ACTION_FILTER_USAGE;

enum { O_HTML = SM_OPT_LONG, O_ABI };

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ "html", required_argument, O_HTML, "a FILE" },
	{ "abi", required_argument, O_ABI, "raw, times, scaled, values, delta or reset" },
	SM_ACTION_FILTER_OPTIONS,
	{ 0 },
};

/* NAME and the options: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct sm_action_filter *af,
                      const char **name, const char **html, int *abi)
{
	struct sm_opt op;
	char err[256];
	int c;

	sm_opt_init(&op, "explain-bug", argc, argv, options);
	while ((c = sm_opt_next(&op)) != -1) {
		if (c == 'h')
			return fputs(usage, stdout), 0;
		if (c == SM_OPT_BAD)
			return 2;
		if (c == SM_OPT_OPERAND && *name)
			return sm_error("explain-bug: unexpected argument '%s'",
			                   op.arg);
		if (c == SM_OPT_OPERAND)
			*name = op.arg;
		else if (c == O_HTML)
			*html = op.arg;
		else if (c == O_ABI) {
			if (sm_abi_arg("explain-bug", op.arg, abi))
				return 2;
		}
		else if (sm_action_filter_opt(af, c, op.arg, err, sizeof(err)) < 0)
			return sm_error("explain-bug: %s", err);
	}
	if (!*name)
		return sm_error("explain-bug: missing NAME, a corpus reader (see "
		                   "'selfmon explain-bug --help')");
	return -1;
}

/* What explain-bug works with (large: on the heap). */
struct work {
	struct best best, cand;
	struct sm_scenario scn;     /* search's scratch */
	struct sm_user_reader user; /* NAME, when it is PATH:SYMBOL */
};

/* Over every arch with r's code: the best of each arch's search, into
 * w->best; its arch (SM_NARCH: no code for r), or -1 out of memory. */
static int find_best(const struct sm_reader *r,
                     const struct sm_action_filter *af, struct work *w)
{
	int arch = SM_NARCH;

	for (int a = 0; a < SM_NARCH; a++) {
		if ((!r->image && !sm_blob_for((enum sm_arch)a)) ||
		    !sm_reader_on(r, (enum sm_arch)a))
			continue;
		if (arch == SM_NARCH)
			arch = a;
		if (search(r, (enum sm_arch)a, af, &w->cand, &w->scn) < 0)
			return -1;
		if (w->cand.found && (!w->best.found ||
		                      w->cand.cell.min.n < w->best.cell.min.n)) {
			free(w->best.scenario);
			w->best = w->cand;
			w->cand.scenario = NULL;
			arch = a;
		}
	}
	return arch;
}

/* The page of --html FILE for the run just listed: the exit status. */
static int write_html(const char *html, const struct sm_reader *r,
                      const char *line, const struct best *b,
                      struct sm_session *s, struct sm_explain *x)
{
	char err[600];
	struct sm_teach t = { .schedule = line, .scenario = b->scenario, .s = s,
	                      .sched = &b->cell.min, .x = x, .fault = r->fault,
	                      .fix = r->fix };

	if (x->oom)
		return sm_error("explain-bug: out of memory");
	if (sm_teach_html_file(html, &t, err, sizeof(err)) < 0)
		return sm_error("explain-bug: %s: %s", html, err);
	return 0;
}

/* A user's reader: the corpus faults whose failure in b's scenario has
 * the signature of its own (lookalike.h). */
static void likeness(const struct sm_reader *r, const struct best *b)
{
	const struct sm_reader *like[4];
	struct sm_expect_at at = {
		.bound = SM_DEFAULT_BOUND, .kernel = b->scn.cfg.kernel,
		.allowed = b->scn.explore, .left_out = b->left_out,
		.foreign = b->foreign,
	};
	unsigned n = sm_lookalike(&b->scn, b->scenario, r->abi, &b->cell, &at,
	                          like, 4);

	if (!n) {
		printf("No fault of the corpus fails this way in %s (the same "
		       "verdict, field, cause and offset, minimal actions).\n",
		       b->scenario);
		return;
	}
	sm_lookalike_print(like, n, "");
}

/* The counterexample, its listing (and page) and the fix: the exit
 * status. */
static int show(const struct sm_reader *r, enum sm_arch arch,
                const struct best *b, const char *html)
{
	char err[512];
	char *line = sm_schedule_text(arch, SM_ENGINE_UNICORN,
	                              r->sched_name ? r->sched_name : r->name,
	                              b->scenario, &b->cell.min);
	struct sm_explain x;
	struct sm_replay_listing l = { &x, stdout, .record = html != NULL,
	                               .max_steps = 400 };
	struct sm_session *s = NULL;

	if (!line)
		return sm_error("explain-bug: out of memory");
	if (!(s = sm_replay_open(&b->scn, r, SM_ENGINE_UNICORN, &l, err,
	                         sizeof(err)))) {
		free(line);
		return sm_error("explain-bug: %s", err);
	}
	printf("\nShortest counterexample (%s): %s\n  %s\n\n", sm_verdict_name(
	       b->cell.verdict), line, b->cell.res.detail);
	sm_run_schedule(s, &b->cell.min);
	sm_explain_done(&x);
	int rc = x.oom ? sm_error("explain-bug: out of memory (the listing)")
	         : 0;
	if (!rc)
		printf("\n%s: %s\n\n", sm_verdict_name(s->res.verdict),
		       s->res.detail);
	if (!rc && html)
		rc = write_html(html, r, line, b, s, &x);
	sm_explain_free(&x);
	sm_session_free(s);
	free(line);
	if (r->fix)
		paragraph("The fix", r->fix);
	else
		likeness(r, b);
	return rc;
}

/* After the reader is known: find, then tell. */
static int explain(const struct sm_reader *r, const struct sm_action_filter *af,
                   struct work *w, const char *html)
{
	int arch = find_best(r, af, w);

	if (arch < 0)
		return sm_error("explain-bug: out of memory");
	if (arch == SM_NARCH)
		return sm_error("explain-bug: no reader code for '%s' in this "
		                   "selfmon", r->name);
	printf("%s (%s ABI): %s\n\n", r->name, sm_abi_name(r->abi), r->what);
	if (r->fault)
		paragraph("The fault", r->fault);
	if (!w->best.found) {
		printf("\nNo bundled scenario makes it fail at bound 2%s.\n",
		       sm_action_filter_given(af) ? " with these kernel actions" : "");
		if (r->fix)
			paragraph("\nThe fix", r->fix);
		if (html)
			fprintf(stderr, "explain-bug: no failure to show, %s not "
			        "written\n", html);
		return 0;
	}
	return show(r, (enum sm_arch)arch, &w->best, html);
}

int cmd_explain_bug(int argc, char **argv)
{
	struct sm_action_filter af = { 0 };
	char err[600];
	const char *name = NULL, *html = NULL;
	int abi = -1;
	int rc = parse_args(argc, argv, &af, &name, &html, &abi);

	if (rc >= 0)
		return rc;
	if (html && sm_teach_html_probe(html, err, sizeof(err)) < 0)
		return sm_error("explain-bug: %s: %s", html, err);
	struct work *w = calloc(1, sizeof(*w));
	const struct sm_reader *r;
	if (!w)
		return sm_error("explain-bug: out of memory");
	rc = sm_reader_arg("explain-bug", name, abi, &w->user, &r);
	if (!rc && !r->fault && !r->image)
		rc = sm_error("explain-bug: '%s' has no bug to explain (the "
		              "reference reader passes every scenario)", name);
	if (!rc)
		rc = explain(r, &af, w, html);
	sm_user_reader_free(&w->user);
	free(w->best.scenario);
	free(w->cand.scenario);
	free(w);
	return rc;
}
