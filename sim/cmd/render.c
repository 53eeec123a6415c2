/*
 * render.c — a sweep's reports in every output (render.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "details.h"
#include "json.h"
#include "render.h"
#include "report.h"
#include "result_json.h"
#include "table.h"

/* What --actions, --without and --drop-scripted changed, under the
 * arch's header. */
static void print_filter(const struct sm_sweep_report *s, enum sm_arch arch)
{
	if (!s->filter)
		return;
	if (s->only)
		printf("kernel actions injected: %s (--actions)\n", s->only);
	if (s->without)
		printf("never injected: %s (--without)\n", s->without);
	for (size_t i = 0; i < s->ndropped; i++) {
		const struct sm_dropped_report *d = &s->dropped[i];
		if (d->arch == arch)
			printf("%s: %" PRIu64 " scripted 'at' line%s skipped "
			       "(--drop-scripted)\n", d->scenario, d->lines,
			       d->lines == 1 ? "" : "s");
	}
	if (!s->drop_scripted)
		printf("scripted 'at' lines still run (--drop-scripted skips those "
		       "of the actions left out)\n");
}

/* explore's line under a cell: its counts and its last run. */
static void print_stats(const struct sm_cell_report *c)
{
	printf("%-18s %" PRIu64 " schedules, %" PRIu64 " blocked, %" PRIu64
	       " on the counter path", "", c->schedules, c->blocked,
	       c->counter_path);
	if (c->pruning)
		printf("; %" PRIu64 " run, %" PRIu64 " counted from equal states "
		       "at %" PRIu64 " branch points%s", c->schedules - c->pruned,
		       c->pruned, c->cuts, c->prune_full ? " (table full: "
		       "later equal states were run)" : "");
	printf("; last run: %s\n", c->detail);
}

static void print_table(const struct sm_sweep_report *s)
{
	bool first = true;
	enum sm_arch prev = 0;
	size_t skip = sm_table_common_prefix(s->cells, s->n);

	for (size_t i = 0; i < s->n; i++) {
		const struct sm_cell_report *c = &s->cells[i];
		if (first || c->arch != prev) {
			char kernel[280] = "";
			if (s->kernel_given || strcmp(c->kernel, "base"))
				snprintf(kernel, sizeof(kernel), ", kernel %s", c->kernel);
			printf("%s%s, %s engine, bound %" PRIu64 "%s%s\n",
			       first ? "" : "\n", sm_arch_name(c->arch), s->engine,
			       s->bound, s->random ? ", random" : "", kernel);
			print_filter(s, c->arch);
			sm_table_columns();
			prev = c->arch;
			first = false;
		}
		sm_table_row(c, skip);
		if (!c->error && s->stats)
			print_stats(c);
	}
}

int sm_render_text(const struct sm_sweep_report *s, const char *cmd)
{
	struct sm_tally t = sm_sweep_tally(s);
	int rc = 0;

	print_table(s);
	if (sm_details_print(s->cells, s->n) < 0) {
		sm_error("%s: out of memory", cmd);
		rc = -1;
	}
	sm_table_summary(s->n, &t);
	if (s->merged)
		printf("; %" PRIu64 " schedules, %u shard%s merged", t.runs,
		       s->merged, s->merged == 1 ? "" : "s");
	else
		printf("; %" PRIu64 " schedules in %.0f s", t.runs, s->seconds);
	printf("%s\n", s->random ? "; random sampling, not exhaustive" : "");
	return rc;
}

/* What `merge` needs to join shards: the version, the sweep's identity
 * and size, the options not already in the document. */
static void json_sweep(struct json *js, const struct sm_sweep_report *s)
{
	json_str(js, "version", s->version);
	json_str(js, "sweep", s->sweep);
	json_u64(js, "cells_total", s->cells_total);
	json_u64(js, "seed", s->seed);
	json_u64(js, "time_limit", s->time_limit);
	if (!s->filter)
		return;
	json_begin(js, "filter", '{');
	if (s->only)
		json_str(js, "actions", s->only);
	if (s->without)
		json_str(js, "without", s->without);
	json_bool(js, "drop_scripted", s->drop_scripted);
	json_begin(js, "scripted_dropped", '[');
	for (size_t i = 0; i < s->ndropped; i++) {
		json_begin(js, NULL, '{');
		json_str(js, "arch", sm_arch_name(s->dropped[i].arch));
		json_str(js, "scenario", s->dropped[i].scenario);
		json_u64(js, "lines", s->dropped[i].lines);
		json_end(js, '{');
	}
	json_end(js, '[');
	json_end(js, '{');
}

static void json_cell(struct json *js, const struct sm_sweep_report *s,
                      const struct sm_cell_report *c)
{
	json_begin(js, NULL, '{');
	json_str(js, "arch", sm_arch_name(c->arch));
	json_u64(js, "index", c->index);
	json_str(js, "outcome", sm_outcome_name[sm_cell_report_outcome(c)]);
	json_str(js, "reader", c->reader);
	if (c->name)
		json_str(js, "name", c->name);
	json_str(js, "abi", c->abi);
	json_str(js, "scenario", c->scenario);
	json_str(js, "kernel", c->kernel);
	json_str(js, "verdict", sm_cell_report_verdict(c));
	json_str(js, "expected", sm_cell_report_expected(c));
	if (c->has_corpus) {
		/* what the corpus declares, checked against the run's
		 * least_bound and counterexample by the tests */
		json_u64(js, "expected_least_bound", c->corpus_least_bound);
		json_str(js, "expected_needs", c->corpus_needs);
	}
	json_bool(js, "as_expected", sm_cell_report_as_expected(c));
	json_bool(js, "exhaustive", sm_cell_report_exhaustive(c, s->random));
	const struct { const char *key; uint64_t v; } count[] = {
		{ "schedules", c->schedules }, { "blocked", c->blocked },
		{ "pruned", c->pruned }, { "counter_path", c->counter_path },
	};
	for (size_t k = 0; k < sizeof(count) / sizeof(count[0]); k++)
		json_u64(js, count[k].key, count[k].v);
	json_str(js, "actions", c->actions);
	json_u64(js, "scripted_dropped", c->scripted_dropped);
	json_str(js, "detail", c->detail);
	if (!c->error)
		sm_result_json(js, &c->res);
	if (c->nlooks_like) { /* "no_sext,pinned_loop" (lookalike.h) */
		char names[SM_LOOKALIKE_MAX * 64] = "";
		for (unsigned k = 0, n = 0; k < c->nlooks_like; k++)
			n += (unsigned)snprintf(names + n, sizeof(names) - n, "%s%.60s",
			                        k ? "," : "", c->looks_like[k]->name);
		json_str(js, "looks_like", names);
	}
	if (c->min) {
		if (c->least_bound >= 0)
			json_u64(js, "least_bound", (uint64_t)c->least_bound);
		json_str(js, "counterexample", c->found);
		json_str(js, "minimised", c->min);
		json_str(js, "trace", c->trace ? c->trace : "");
	}
	json_end(js, '{');
}

void sm_render_json(const struct sm_sweep_report *s)
{
	struct sm_tally t = sm_sweep_tally(s);
	struct json js;
	char shard[32]; /* two unsigned numbers fit */

	json_init(&js, stdout);
	json_begin(&js, NULL, '{');
	json_str(&js, "engine", s->engine);
	json_u64(&js, "bound", s->bound);
	json_u64(&js, "random", s->random);
	snprintf(shard, sizeof(shard), "%u/%u", s->shard, s->nshards);
	json_str(&js, "shard", shard);
	json_sweep(&js, s);
	json_begin(&js, "cells", '[');
	for (size_t i = 0; i < s->n; i++)
		json_cell(&js, s, &s->cells[i]);
	json_end(&js, '[');
	sm_table_json_counts(&js, &t);
	json_end(&js, '{');
	putchar('\n');
}

int sm_outputs_check(const char *cmd, bool tap, bool json, const char *junit)
{
	if (tap && json)
		return sm_error("%s: --tap and --json both want standard output: "
		                "give one", cmd);
	if (junit && sm_out_is_stdout(junit) && (tap || json))
		return sm_error("%s: --junit %s and --%s both want standard "
		                "output: give one", cmd, junit, tap ? "tap" : "json");
	return 0;
}

bool sm_outputs_text(bool tap, bool json, const char *junit)
{
	return !tap && !json && (!junit || !sm_out_is_stdout(junit));
}

int sm_render_stdout(const struct sm_sweep_report *s, bool tap, bool json,
                     const char *junit, const char *cmd)
{
	if (tap)
		return sm_render_tap(s, cmd);
	if (json)
		sm_render_json(s);
	else if (sm_outputs_text(tap, json, junit))
		return sm_render_text(s, cmd);
	return 0;
}

int sm_render_tap(const struct sm_sweep_report *s, const char *cmd)
{
	if (sm_report_tap(stdout, s) < 0 || fflush(stdout) != 0) {
		sm_error("%s: cannot write the TAP report: %s", cmd,
		            strerror(errno));
		return -1;
	}
	return ferror(stdout) ? -1 : 0;
}

int sm_render_junit(const struct sm_sweep_report *s, struct sm_out *o,
                    const char *path, const char *cmd)
{
	char err[256];

	sm_report_junit(o->f, s);
	if (sm_out_close(o, err, sizeof(err)) == 0) /* says a write error */
		return 0;
	sm_error("%s: cannot write %s: %s", cmd, path, err);
	return -1;
}
