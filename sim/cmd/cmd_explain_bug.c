/*
 * cmd_explain_bug.c — `selfmon explain-bug NAME`: for a reader of the
 * corpus, the minimal failing schedule that shows its fault most plainly
 * with the --explain listing, why it was chosen and where its actions
 * land, and a paragraph on the fault and the fix; for a user's
 * PATH:SYMBOL (--abi), the same listing and the corpus fault its failure
 * looks like.
 *
 * Owns: the search for every failing example among the bundled
 * scenarios (their ranking is example_rank.c's) and the page it prints
 * (--json: the listing's JSON document with the ranking; --html FILE:
 * also the page to step through it, sim/teach/).  The fault and fix
 * texts are the corpus table's (reader/variants/list.h, through struct
 * sm_reader); the likeness is lookalike.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action_filter.h"
#include "bundled.h"
#include "commands.h"
#include "options.h"
#include "explain.h"
#include "example_rank.h"
#include "explore.h"
#include "json.h"
#include "lands.h"
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

/* What explain-bug works with (large: on the heap). */
struct work {
	struct sm_example *ex;      /* every failing example, then ranked */
	unsigned nex, cap;
	struct sm_scenario scn;     /* search's scratch */
	struct sm_user_reader user; /* NAME, when it is PATH:SYMBOL */
	const struct sm_reader *like[4]; /* a user's reader's lookalikes */
	unsigned nlike;
};

/* Explore one scenario for r: true with *cell when it fails. */
static bool fails_in(const struct sm_reader *r, struct sm_scenario *scn,
                     const struct sm_action_filter *af, struct sm_cell *cell)
{
	struct sm_explore_opts o = { .bound = SM_DEFAULT_BOUND,
	                             .no_stale = sm_action_filter_no_stale(af) };
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

/* Room for one more example: its slot, or NULL out of memory. */
static struct sm_example *add_example(struct work *w)
{
	if (w->nex == w->cap) {
		unsigned cap = w->cap ? 2 * w->cap : 8;
		struct sm_example *ex = realloc(w->ex, cap * sizeof(*ex));
		if (!ex)
			return NULL;
		w->ex = ex;
		w->cap = cap;
	}
	return &w->ex[w->nex];
}

/* Each bundled scenario of arch (in name order) where r fails, the
 * user's action filter applied to each, with its minimised
 * counterexample, onto w->ex: 0, or -1 out of memory. */
static int search(const struct sm_reader *r, enum sm_arch arch,
                  const struct sm_action_filter *af, struct work *w)
{
	char **names, err[1024];
	int n = sm_bundled_names(&names), rc = n < 0 ? -1 : 0;
	struct sm_scenario *scn = &w->scn;
	struct sm_cell cell;

	for (int i = 0; i < n && !rc; i++) {
		if (sm_scenario_open(names[i], scn, err, sizeof(err)) < 0 ||
		    scn->cfg.arch != arch || scn->expect >= 0)
			continue; /* a kernel hazard explains no reader's bug */
		unsigned dropped, own = scn->explore;
		unsigned lines = sm_action_filter_apply(af, scn, &dropped);
		if (!fails_in(r, scn, af, &cell))
			continue;
		struct sm_example *e = add_example(w);
		if (!e) {
			rc = -1;
			break;
		}
		e->scenario = names[i];
		names[i] = NULL;
		e->arch = arch;
		e->scn = *scn;
		e->cell = cell;
		e->cell.min.dropped = dropped;
		e->left_out = own & ~scn->explore;
		e->foreign = (scn->explore & ~own) || lines;
		e->order = w->nex++;
	}
	sm_names_free(names, n);
	return rc;
}

static const char usage[] =
	"usage: selfmon explain-bug NAME [options]\n\n"
	"For a reader of the corpus (see 'selfmon list'): the failing schedule\n"
	"over the bundled scenarios that shows its fault most plainly, the\n"
	"step-by-step listing of it, and what the fault is and how to fix it.\n"
	"The example chosen injects an action the fault names, if one fails;\n"
	"then a local writer, fewer actions, a scenario that scripts that\n"
	"action too, fewer steps.  NAME may be your PATH:SYMBOL with --abi\n"
	"(as check takes it): then the corpus fault whose failure there looks\n"
	"like yours, and its fix.\n\n"
	"  --json          the listing as one JSON document, with every failing\n"
	"                  example ranked (candidates) and why one was chosen\n"
	"  --html FILE     also write a page to step through it in a browser\n"
	"  --abi ABI       the ABI of a PATH:SYMBOL reader: raw, times, scaled,\n"
	"                  values, delta or reset\n" SM_ACTION_FILTER_USAGE;

enum { O_HTML = SM_OPT_LONG, O_ABI, O_JSON };

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ "html", required_argument, O_HTML, "a FILE" },
	{ "json", no_argument, O_JSON, NULL },
	{ "abi", required_argument, O_ABI, "raw, times, scaled, values, delta or reset" },
	SM_ACTION_FILTER_OPTIONS,
	{ 0 },
};

struct opts {
	struct sm_action_filter af;
	const char *name, *html;
	int abi;
	bool json;
};

/* NAME and the options: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct opts *o)
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
		if (c == SM_OPT_OPERAND && o->name)
			return sm_error("explain-bug: unexpected argument '%s'",
			                   op.arg);
		if (c == SM_OPT_OPERAND)
			o->name = op.arg;
		else if (c == O_HTML)
			o->html = op.arg;
		else if (c == O_JSON)
			o->json = true;
		else if (c == O_ABI) {
			if (sm_abi_arg("explain-bug", op.arg, &o->abi))
				return 2;
		}
		else if (sm_action_filter_opt(&o->af, c, op.arg, err,
		                              sizeof(err)) < 0)
			return sm_error("explain-bug: %s", err);
	}
	if (!o->name)
		return sm_error("explain-bug: missing NAME, a corpus reader (see "
		                   "'selfmon explain-bug --help')");
	return -1;
}

/* Over every arch with r's code: each arch's failing examples, ranked
 * (example_rank.h); the first arch with code (SM_NARCH: none), or -1 out
 * of memory. */
static int find_examples(const struct sm_reader *r,
                         const struct sm_action_filter *af, struct work *w)
{
	int arch = SM_NARCH;

	for (int a = 0; a < SM_NARCH; a++) {
		if ((!r->image && !sm_blob_for((enum sm_arch)a)) ||
		    !sm_reader_on(r, (enum sm_arch)a))
			continue;
		if (arch == SM_NARCH)
			arch = a;
		if (search(r, (enum sm_arch)a, af, w) < 0)
			return -1;
	}
	sm_example_sort(r, w->ex, w->nex);
	return arch;
}

/* What the JSON document adds for explain-bug (sm_teach.more). */
struct more {
	const struct sm_reader *r;
	const struct work *w;
};

static void more_json(struct json *j, const void *arg)
{
	const struct more *m = arg;

	sm_example_json(j, m->r, m->w->ex, m->w->nex);
	if (m->r->fix)
		return;
	json_begin(j, "looks_like", '[');
	for (unsigned i = 0; i < m->w->nlike; i++)
		json_str(j, NULL, m->w->like[i]->name);
	json_end(j, '[');
}

/* A user's reader: the corpus faults whose failure in b's scenario has
 * the signature of its own (lookalike.h), into w->like. */
static void likeness(const struct sm_reader *r, struct work *w)
{
	const struct sm_example *b = &w->ex[0];
	struct sm_expect_at at = {
		.bound = SM_DEFAULT_BOUND, .kernel = b->scn.cfg.kernel,
		.allowed = b->scn.explore, .left_out = b->left_out,
		.foreign = b->foreign,
	};

	w->nlike = sm_lookalike(&b->scn, b->scenario, r->abi, &b->cell, &at,
	                        w->like, 4);
}

static void print_likeness(const struct work *w)
{
	if (!w->nlike) {
		printf("No fault of the corpus fails this way in %s (the same "
		       "verdict, field, cause and offset, minimal actions).\n",
		       w->ex[0].scenario);
		return;
	}
	sm_lookalike_print(w->like, w->nlike, "");
}

/* The text before the listing: the schedule, why it was chosen, where
 * each action lands (lands.h) and the verdict's detail. */
static void print_head(const struct sm_reader *r, const struct work *w,
                       const char *line, const struct sm_explain *x)
{
	const struct sm_example *b = &w->ex[0];
	char why[600], at[400];

	sm_example_why(r, w->ex, w->nex, why, sizeof(why));
	printf("\nChosen counterexample (%s): %s\n  %s\n", sm_verdict_name(
	       b->cell.verdict), line, why);
	for (unsigned i = 0; i < b->cell.min.n; i++) {
		sm_lands_text(x, b->cell.min.item[i].step, at, sizeof(at));
		printf("  %s lands %s\n", sm_action_name(b->cell.min.item[i].kind),
		       at);
	}
	printf("  %s\n\n", b->cell.res.detail);
}

/* The chosen example run again with its listing recorded (the text into
 * memory unless --json: *text, *len): the session, or NULL after one
 * error line. */
static struct sm_session *listed_run(const struct sm_reader *r,
                                     const struct sm_example *b, bool json,
                                     struct sm_explain *x, char **text,
                                     size_t *len)
{
	char err[512];
	FILE *mem = json ? NULL : open_memstream(text, len);
	struct sm_replay_listing l = { x, mem, .record = true,
	                               .max_steps = 400 };
	struct sm_session *s;

	if (!json && !mem)
		return sm_error("explain-bug: out of memory"), NULL;
	s = sm_replay_open(&b->scn, r, SM_ENGINE_UNICORN, &l, err, sizeof(err));
	if (!s) {
		if (mem)
			fclose(mem);
		sm_error("explain-bug: %s", err);
		return NULL;
	}
	sm_run_schedule(s, &b->cell.min);
	sm_explain_done(x);
	if (mem && fclose(mem) != 0)
		x->oom = true;
	return s;
}

/* The chosen counterexample, its listing (and page) and the fix: the
 * exit status. */
static int show(const struct sm_reader *r, struct work *w,
                const struct opts *o)
{
	const struct sm_example *b = &w->ex[0];
	char err[600], *text = NULL;
	size_t len = 0;
	char *line = sm_schedule_text(b->arch, SM_ENGINE_UNICORN,
	                              r->sched_name ? r->sched_name : r->name,
	                              b->scenario, &b->cell.min);
	struct sm_explain x;
	struct sm_session *s;
	struct more m = { r, w };
	int rc = 0;

	if (!line)
		return sm_error("explain-bug: out of memory");
	if (!(s = listed_run(r, b, o->json, &x, &text, &len))) {
		free(text);
		free(line);
		return 2;
	}
	if (!r->fix)
		likeness(r, w);
	struct sm_teach t = { .schedule = line, .scenario = b->scenario, .s = s,
	                      .sched = &b->cell.min, .x = &x, .fault = r->fault,
	                      .fix = r->fix, .more = more_json, .more_arg = &m };
	if (x.oom)
		rc = sm_error("explain-bug: out of memory (the listing)");
	else if (o->json)
		sm_teach_json(stdout, &t);
	else {
		print_head(r, w, line, &x);
		fwrite(text, 1, len, stdout);
		printf("\n%s: %s\n\n", sm_verdict_name(s->res.verdict),
		       s->res.detail);
	}
	if (!rc && o->html &&
	    sm_teach_html_file(o->html, &t, err, sizeof(err)) < 0)
		rc = sm_error("explain-bug: %s: %s", o->html, err);
	sm_explain_free(&x);
	sm_session_free(s);
	free(text);
	free(line);
	if (o->json)
		return rc;
	if (r->fix)
		paragraph("The fix", r->fix);
	else
		print_likeness(w);
	return rc;
}

/* No failing example: the fault, the fix and the rule as JSON. */
static void json_none(const struct sm_reader *r, const struct work *w)
{
	struct json j;
	struct more m = { r, w };

	json_init(&j, stdout);
	json_begin(&j, NULL, '{');
	json_str(&j, "reader", r->name);
	json_str(&j, "abi", sm_abi_name(r->abi));
	if (r->fault)
		json_str(&j, "fault", r->fault);
	if (r->fix)
		json_str(&j, "fix", r->fix);
	more_json(&j, &m);
	json_end(&j, '{');
	fputc('\n', stdout);
}

/* After the reader is known: find, then tell. */
static int explain(const struct sm_reader *r, const struct opts *o,
                   struct work *w)
{
	int arch = find_examples(r, &o->af, w);

	if (arch < 0)
		return sm_error("explain-bug: out of memory");
	if (arch == SM_NARCH)
		return sm_error("explain-bug: no reader code for '%s' in this "
		                   "selfmon", r->name);
	if (!o->json) {
		printf("%s (%s ABI): %s\n\n", r->name, sm_abi_name(r->abi),
		       r->what);
		if (r->fault)
			paragraph("The fault", r->fault);
	}
	if (!w->nex) {
		if (o->json)
			json_none(r, w);
		else
			printf("\nNo bundled scenario makes it fail at bound 2%s.\n",
			       sm_action_filter_given(&o->af)
			       ? " with these kernel actions" : "");
		if (r->fix && !o->json)
			paragraph("\nThe fix", r->fix);
		if (o->html)
			fprintf(stderr, "explain-bug: no failure to show, %s not "
			        "written\n", o->html);
		return 0;
	}
	return show(r, w, o);
}

int cmd_explain_bug(int argc, char **argv)
{
	struct opts o = { .abi = -1 };
	char err[600];
	int rc = parse_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	if (o.html && sm_teach_html_probe(o.html, err, sizeof(err)) < 0)
		return sm_error("explain-bug: %s: %s", o.html, err);
	struct work *w = calloc(1, sizeof(*w));
	const struct sm_reader *r;
	if (!w)
		return sm_error("explain-bug: out of memory");
	rc = sm_reader_arg("explain-bug", o.name, o.abi, &w->user, &r);
	if (!rc && !r->fault && !r->image)
		rc = sm_error("explain-bug: '%s' has no bug to explain (the "
		              "reference reader passes every scenario)", o.name);
	if (!rc)
		rc = explain(r, &o, w);
	sm_user_reader_free(&w->user);
	for (unsigned i = 0; i < w->nex; i++)
		free(w->ex[i].scenario);
	free(w->ex);
	free(w);
	return rc;
}
