/*
 * cmd_check.c — `selfmon check` (and `selfmon explore`): every reader on
 * every scenario, every schedule up to the bound, a verdict table.
 *
 * Owns: the steps of a run (options, plan, workers, traces, outputs) with
 * one cleanup path, the finished cells as reports (cell_report.h) and the
 * exit status (README.md, Checking readers).  The options are
 * check_options.c's, the plan and the workers check_plan.c's, the traces check_traces.c's,
 * --kernel-diff check_kernel_diff.c's; every output is render.c's, the
 * same that `merge` prints.  Exploration itself is explore.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "commands.h"
#include "outfile.h"
#include "render.h"
#include "table.h"

/* The texts a report points at that no job holds. */
struct cell_text {
	char kernel[256], actions[256];
};

/* The reports of a finished sweep, and what they point at. */
struct reports {
	struct sm_sweep_report s;
	struct sm_cell_report *cells;
	struct cell_text *text;
	struct sm_dropped_report *dropped;
	char sweep[32], only[256], without[256];
};

/* A failure's least bound, or -1: none known. */
static int least_bound(const struct job *j)
{
	return j->min_line && j->cell.least_bound != SM_LEAST_UNKNOWN
	       ? (int)j->cell.least_bound : -1;
}

static void cell_report(const struct plan *p, const struct job *j,
                        struct sm_cell_report *c, struct cell_text *t)
{
	const struct sm_cell *cell = &j->cell;
	bool error = j->error[0] != '\0';

	*c = (struct sm_cell_report){
		.index = j->index, .arch = j->scn->cfg.arch,
		.reader = j->reader->name, .abi = sm_abi_name(j->reader->abi),
		.scenario = j->scn_name,
		.name = j->reader->image ? p->o.name : NULL,
		.kernel = sm_kernel_text(j->scn->cfg.kernel, t->kernel,
		                         sizeof(t->kernel)),
		.error = error, .verdict = error ? SM_V_ERROR : cell->verdict,
		.unjudged = j->unjudged, .expected = (int)j->expected,
		.has_corpus = j->row && sm_verdict_fails(j->expected),
		.schedules = cell->runs, .blocked = cell->blocked,
		.pruned = cell->pruned, .counter_path = cell->counter_path,
		.actions = sm_action_set_text(j->scn->explore, t->actions,
		                              sizeof(t->actions)),
		.scripted_dropped = j->dropped,
		.detail = error ? j->error : cell->res.detail, .res = cell->res,
		.least_bound = least_bound(j), .found = j->found_line,
		.min = j->min_line, .trace = j->trace, .seconds = j->seconds,
		.cuts = cell->cuts, .pruning = cell->pruning,
		.prune_full = cell->prune_full,
		.nlooks_like = j->nlooks_like,
	};
	memcpy(c->looks_like, j->looks_like, sizeof(c->looks_like));
	if (c->has_corpus) {
		c->corpus_least_bound = j->row->least_bound;
		c->corpus_needs = j->row->needs;
	}
}

/* The sweep's header: its options, identity and filter. */
static void sweep_report(const struct plan *p, struct reports *r)
{
	const struct sm_action_filter *f = &p->o.af;
	size_t nd = 0;

	for (unsigned i = 0; i < p->nscn; i++)
		if (p->dropped[i])
			r->dropped[nd++] = (struct sm_dropped_report){
				p->scn[i]->cfg.arch, p->scn_name[i], p->dropped[i] };
	r->s = (struct sm_sweep_report){
		.engine = sm_engine_name(p->o.engine), .bound = p->o.x.bound,
		.random = p->o.x.random_runs,
		.seed = p->o.x.random_runs ? p->o.x.seed : 0,
		.time_limit = p->o.x.time_limit, .shard = p->o.shard,
		.nshards = p->o.nshards, .version = SELFMON_VERSION,
		.sweep = sm_sweep_id_hex(&p->sweep, r->sweep, sizeof(r->sweep)),
		.cells_total = p->ncells, .kernel_given = p->o.kernel_given,
		.filter = sm_action_filter_given(f),
		.drop_scripted = f->drop_scripted,
		.only = f->only ? sm_action_set_text(f->only & ~f->without, r->only,
		                                     sizeof(r->only)) : NULL,
		.without = f->without ? sm_action_set_text(f->without, r->without,
		                                           sizeof(r->without))
		                      : NULL,
		.dropped = r->dropped, .ndropped = nd, .cells = r->cells,
		.n = p->njobs, .stats = p->o.explore_stats,
	};
}

/* The reports of every job, or of the finished ones only (an
 * interrupted sweep): 0, or -1 out of memory. */
static int make_reports(const struct plan *p, struct reports *r,
                        bool finished_only)
{
	size_t n = p->njobs ? p->njobs : 1, k = 0;

	r->cells = calloc(n, sizeof(*r->cells));
	r->text = calloc(n, sizeof(*r->text));
	r->dropped = calloc(p->nscn ? p->nscn : 1, sizeof(*r->dropped));
	if (!r->cells || !r->text || !r->dropped)
		return -1;
	for (unsigned i = 0; i < p->njobs; i++)
		if (!finished_only || p->jobs[i].finished) {
			cell_report(p, &p->jobs[i], &r->cells[k], &r->text[k]);
			k++;
		}
	sweep_report(p, r);
	r->s.n = k;
	return 0;
}

static void free_reports(struct reports *r)
{
	free(r->cells);
	free(r->text);
	free(r->dropped);
}

/* The finished sweep's traces and outputs (--junit into the open junit):
 * the exit status. */
static int output(struct plan *p, struct sm_out *junit, time_t t0)
{
	struct reports r = { 0 };
	bool failed = check_write_traces(p) < 0;

	if (make_reports(p, &r, false) < 0) {
		if (p->o.junit)
			sm_out_abort(junit);
		free_reports(&r);
		return sm_error("check: out of memory");
	}
	if (p->o.junit &&
	    sm_render_junit(&r.s, junit, p->o.junit, "check") < 0)
		failed = true; /* an output not written: exit 2 */
	if (sm_outputs_text(p->o.tap, p->o.json, p->o.junit))
		r.s.seconds = difftime(time(NULL), t0); /* the text's summary */
	failed |= sm_render_stdout(&r.s, p->o.tap, p->o.json, p->o.junit,
	                           "check") < 0;
	struct sm_tally t = sm_sweep_tally(&r.s);
	free_reports(&r);
	return failed ? 2 : sm_table_status(&t);
}

/* The sweep stopped by a signal: the table of the cells that finished
 * (not with --json or --tap: half a document would pass for a whole
 * one), the ones stopped named on stderr; no trace or report file.  Exit
 * status 130. */
static int interrupted(struct plan *p, time_t t0)
{
	struct reports r = { 0 };
	unsigned finished = 0, stopped = 0;
	char names[1024] = "";
	size_t used = 0;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];
		finished += j->finished;
		if (j->finished || i >= atomic_load(&p->next))
			continue;
		stopped++;
		if (used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used,
			                         "%s%s in %s (%s)", stopped > 1 ? ", "
			                         : "", j->reader->name, j->scn_name,
			                         sm_arch_name(j->scn->cfg.arch));
	}
	if (!p->o.json && !p->o.tap && finished) {
		if (make_reports(p, &r, true) < 0) {
			free_reports(&r);
			return sm_error("check: out of memory");
		}
		r.s.seconds = difftime(time(NULL), t0);
		sm_render_text(&r.s, "check");
		free_reports(&r);
	}
	fflush(stdout);
	fprintf(stderr, "selfmon: check: interrupted by %s: %u of %u cells "
	        "finished%s; stopped: %s%s; %u not started; no trace or report "
	        "file written\n", strsignal(p->signal), finished, p->njobs,
	        finished && !p->o.json && !p->o.tap ? " (the table above)" : "",
	        stopped ? names : "none", used >= sizeof(names) ? "..." : "",
	        p->njobs - finished - stopped);
	return 130;
}

/* Every step of a run into p, which the caller frees: the exit status. */
static int steps(struct plan *p, int argc, char **argv, bool stats)
{
	int rc = check_parse_opts(argc, argv, &p->o);

	if (rc)
		return rc == 1 ? 0 : rc;
	p->o.explore_stats = stats;
	if (p->o.engine == SM_ENGINE_NATIVE && p->o.arch > 0)
		return sm_error("check: the native engine runs x86_64 only");
	if (p->o.arch >= 0 && !p->o.nusers &&
	    !sm_blob_for((enum sm_arch)p->o.arch))
		return sm_error("check: no reader code was built for %s (its "
		                   "cross compiler was not found)",
		                   sm_arch_name((enum sm_arch)p->o.arch));
	if ((rc = check_load_users(p)) != 0 ||
	    (rc = check_load_scenarios(p)) != 0 || (rc = check_plan_jobs(p)) != 0)
		return rc;
	if (p->ncells == 0) /* (a shard may be empty: the others have cells) */
		return sm_error("check: nothing to check (no scenario of a "
		                   "built arch)");
	struct sm_out junit;
	char err[256];
	if (p->o.junit && sm_out_open(&junit, p->o.junit, err, sizeof(err)) < 0)
		return sm_error("check: cannot write %s: %s", p->o.junit, err);
	time_t t0 = time(NULL);
	check_run_all(p);
	if (atomic_load(&p->stop) && !p->o.diffing) {
		if (p->o.junit)
			sm_out_abort(&junit);
		return check_lines(p) < 0 ? sm_error("check: out of memory")
		       : interrupted(p, t0);
	}
	check_lookalikes(p);
	if (check_lines(p) < 0) {
		if (p->o.junit)
			sm_out_abort(&junit);
		return sm_error("check: out of memory");
	}
	if (p->o.diffing) /* (no --junit with it) */
		return check_kernel_diff(p);
	return output(p, &junit, t0);
}

static int run_check(int argc, char **argv, bool stats)
{
	struct plan *p = calloc(1, sizeof(*p));

	if (!p)
		return sm_error("check: out of memory");
	int rc = steps(p, argc, argv, stats);
	check_free_plan(p);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	return run_check(argc, argv, false);
}

int cmd_explore(int argc, char **argv)
{
	return run_check(argc, argv, true);
}
