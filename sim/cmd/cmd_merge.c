/*
 * cmd_merge.c — `selfmon merge PART.json...`: the `check --shard I/N
 * --json` outputs of one sweep joined into what check prints of the whole
 * sweep (table, JSON, TAP, JUnit), with check's exit status.
 *
 * Owns: what a shard document must hold, read into typed cell reports
 * (cell_report.h), which shards belong together (same selfmon version,
 * options and sweep identity, one of each I of the same N, each with
 * exactly its cells).  Every derived field of a cell (outcome,
 * as_expected, exhaustive) is checked against what cell_report.c derives
 * from its primary ones, names and texts against what check could write;
 * the shards together are read within one cap, so memory is bounded
 * across them.  It must not print a result itself: every output is
 * render.c's, the same as check's.  Reading JSON is json_read.c, a
 * result's fields result_read.c; the sweep identity is made by check
 * (shard.c).  Nothing is printed unless every shard is accepted.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "input.h"
#include "json.h"
#include "json_read.h"
#include "model.h"
#include "session.h"
#include "options.h"
#include "outfile.h"
#include "render.h"
#include "result_read.h"
#include "shard.h"
#include "table.h"
#include "verdict.h"

struct shard {
	const char *path;
	struct jr_value doc;
	const char *version, *sweep, *engine, *shard;
	uint64_t total, bound, random, seed, time_limit;
	unsigned i, n;
	/* --actions / --without / --drop-scripted, when the document has a
	 * "filter" */
	bool filter, drop_scripted;
	const char *only, *without;
	struct sm_dropped_report *dropped;
	size_t ndropped;
	struct sm_cell_report *cells;  /* texts point into doc */
	size_t ncells;
};

struct merge {
	bool json, tap;
	const char *junit;    /* --junit FILE */
	struct shard *s;
	unsigned ns;
	struct sm_cell_report *cell;  /* the whole sweep, by index */
	uint64_t total;
};

static const char usage[] =
	"usage: selfmon merge [--json | --tap] [--junit FILE] PART.json...\n\n"
	"Joins the outputs of 'selfmon check --shard I/N --json' (every shard\n"
	"I = 0..N-1 of one sweep, each once) into what check prints of the\n"
	"whole sweep: its verdict table, or with --json its document (shard\n"
	"\"0/1\"), with --tap its TAP report, with --junit FILE also its JUnit\n"
	"report (the cells' times are not in the shards: 0).  Shards made by\n"
	"another selfmon version, with other options, readers or scenarios,\n"
	"or of another N are refused, as are missing and duplicated shards.\n\n"
	"  --json          one JSON document, as check --json writes it\n"
	"  --tap           TAP version 13 on standard output instead of the table\n"
	"  --junit FILE    also write a JUnit XML report (a test case per cell);\n"
	"                  FILE '-' (or /dev/stdout): on standard output, alone\n\n"
	"Exit status: as check's, from the merged cells (0 every verdict as\n"
	"expected, 1 a reader failed or got an unexpected verdict, 3 some cell\n"
	"INCOMPLETE, 4 some cell UNSUPPORTED), 2 bad input, a cell that could\n"
	"not run or an output not written.\n";

enum { O_JSON = SM_OPT_LONG, O_TAP, O_JUNIT };

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ "json", no_argument, O_JSON, NULL },
	{ "tap", no_argument, O_TAP, NULL },
	{ "junit", required_argument, O_JUNIT, "a file" },
	{ 0 },
};

/* A string field that must be there: its text, or NULL after the line. */
static const char *need_str(const char *path, const char *where,
                            const struct jr_value *obj, const char *key)
{
	const char *s = jr_str(jr_get(obj, key));

	if (!s)
		sm_error("%s: %sno string \"%s\" (not the --json of 'selfmon "
		            "check --shard', or of an older selfmon)", path, where,
		            key);
	return s;
}

/* A whole number field that must be there: 0, or -1 after the line. */
static int need_u64(const char *path, const char *where,
                    const struct jr_value *obj, const char *key,
                    uint64_t *out)
{
	if (jr_u64(jr_get(obj, key), out))
		return 0;
	sm_error("%s: %sno whole number \"%s\" (not the --json of 'selfmon "
	            "check --shard', or of an older selfmon)", path, where, key);
	return -1;
}

static int need_bool(const char *path, const char *where,
                     const struct jr_value *obj, const char *key, bool *out)
{
	const struct jr_value *v = jr_get(obj, key);

	if (v && v->type == JR_BOOL)
		return *out = v->b, 0;
	sm_error("%s: %sno true/false \"%s\"", path, where, key);
	return -1;
}

/* An optional string: NULL when absent; *bad when there but no string. */
static const char *opt_str(const struct jr_value *obj, const char *key,
                           bool *bad)
{
	const struct jr_value *v = jr_get(obj, key);

	if (v && v->type != JR_STRING)
		*bad = true;
	return jr_str(v);
}

/* A name or text of a cell: what check could have written (the enums'
 * names, input.c's text rule), so no shard can forge a line. */
static int check_text(const char *path, const char *where, const char *key,
                      const char *v, bool name)
{
	char why[96];

	if (name && (!v[0] || strlen(v) > 4096))
		return sm_error("%s: %s\"%s\" is empty or longer than 4096 "
		                   "bytes", path, where, key);
	if (sm_text_check(v, why, sizeof(why)) < 0)
		return sm_error("%s: %s\"%s\": %s", path, where, key, why);
	return 0;
}

/* The derived fields of a cell (outcome, as_expected, exhaustive) must be
 * what check derives from its primary ones (cell_report.c): 0 with the
 * primary ones that give them in c, or 2 after the line.  Two facts are
 * not in the JSON, so each value they could have is tried: whether a
 * verdict "ERROR" is selfmon's own error (the cell could not run) or the
 * engine's, and, for an unjudged cell ("expected": "-"), the expectation
 * it was not held to (PASS, or none). */
static int check_derived(const char *path, const char *where,
                         struct sm_cell_report *c, const char *outcome,
                         bool as_expected, bool exhaustive, uint64_t random)
{
	int oc = sm_outcome_from_name(outcome);
	int e = c->expected;

	for (int error = 0; error <= (c->verdict == SM_V_ERROR); error++)
		for (int hidden = 0; hidden <= c->unjudged; hidden++) {
			c->error = error;
			c->expected = hidden ? -1 : e;
			if ((int)sm_cell_report_outcome(c) == oc &&
			    sm_cell_report_as_expected(c) == as_expected &&
			    sm_cell_report_exhaustive(c, random) == exhaustive)
				return 0;
		}
	return sm_error("%s: %s\"outcome\" %s, \"as_expected\" %s and "
	                   "\"exhaustive\" %s do not follow from verdict %s, "
	                   "expected %s%s", path, where, outcome,
	                   as_expected ? "true" : "false",
	                   exhaustive ? "true" : "false",
	                   sm_verdict_name(c->verdict),
	                   c->unjudged ? "-" : sm_verdict_name((enum sm_verdict)e),
	                   random ? " under --random" : "");
}

/* "looks_like": corpus readers with a fault, by name, comma-separated
 * (render.c): 0, or 2 after the line. */
static int cell_looks_like(const char *path, const char *where,
                           const struct jr_value *o, struct sm_cell_report *c)
{
	bool bad = false;
	const char *s = opt_str(o, "looks_like", &bad);
	char name[64];

	c->nlooks_like = 0;
	while (!bad && s && *s) {
		size_t n = strcspn(s, ",");
		const struct sm_reader *r = NULL;
		if (n < sizeof(name)) {
			snprintf(name, sizeof(name), "%.*s", (int)n, s);
			r = sm_reader_find(name);
		}
		bad = !r || !r->fault || c->nlooks_like == SM_LOOKALIKE_MAX ||
		      !c->min;
		if (!bad)
			c->looks_like[c->nlooks_like++] = r;
		s += n + (s[n] == ',');
	}
	if (bad)
		return sm_error("%s: %sa bad looks_like (corpus readers with a "
		                "fault, at most %d, of a failure)", path, where,
		                SM_LOOKALIKE_MAX);
	return 0;
}

/* The counterexample's fields: 0, or 2 after the line. */
static int cell_cex(const char *path, const char *where,
                    const struct jr_value *o, struct sm_cell_report *c)
{
	bool bad = false;
	uint64_t u;

	c->found = opt_str(o, "counterexample", &bad);
	c->min = opt_str(o, "minimised", &bad);
	c->trace = opt_str(o, "trace", &bad);
	c->name = opt_str(o, "name", &bad);
	if (bad || !c->found != !c->min || !c->found != !c->trace)
		return sm_error("%s: %sa bad name, counterexample, minimised or "
		                "trace",
		                   path, where);
	const struct jr_value *lb = jr_get(o, "least_bound");
	c->least_bound = -1;
	if (lb) {
		if (!jr_u64(lb, &u) || u > SM_MAX_BOUND || !c->found)
			return sm_error("%s: %sa bad least_bound (a failure's, at "
			                   "most %d)", path, where, SM_MAX_BOUND);
		c->least_bound = (int)u;
	}
	return 0;
}

/* The verdicts, the arch and the corpus's declaration: 0, or 2 after the
 * line. */
static int cell_names(const char *path, const char *where,
                      const struct jr_value *o, struct sm_cell_report *c,
                      const char *arch, const char *verdict,
                      const char *expected, const char *outcome)
{
	int v = sm_verdict_from_name(verdict), a = sm_arch_from_name(arch);
	bool bad = false;

	c->unjudged = !strcmp(expected, "-");
	c->expected = c->unjudged ? SM_V_PASS : sm_verdict_from_name(expected);
	if (v < 0 || c->expected < 0 || sm_outcome_from_name(outcome) < 0)
		return sm_error("%s: %sunknown verdict, expected verdict or "
		                   "outcome", path, where);
	if (a < 0)
		return sm_error("%s: %sunknown arch '%.40s'", path, where, arch);
	c->verdict = (enum sm_verdict)v;
	c->arch = (enum sm_arch)a;
	const struct jr_value *lb = jr_get(o, "expected_least_bound");
	c->corpus_needs = opt_str(o, "expected_needs", &bad);
	c->has_corpus = lb || c->corpus_needs;
	if (bad || (c->has_corpus && (!c->corpus_needs ||
	                              !jr_u64(lb, &c->corpus_least_bound))))
		return sm_error("%s: %sa bad expected_least_bound or "
		                   "expected_needs", path, where);
	return 0;
}

/* The fields of one cell object, typed: 0, or not 0 after the line. */
static int cell_fields(const char *path, const char *where,
                       const struct jr_value *o, struct sm_cell_report *c,
                       uint64_t random)
{
	const char *arch, *verdict, *expected, *outcome;
	bool as_expected, exhaustive;
	char err[160];

	if (!(arch = need_str(path, where, o, "arch")) ||
	    !(c->reader = need_str(path, where, o, "reader")) ||
	    !(c->scenario = need_str(path, where, o, "scenario")) ||
	    !(verdict = need_str(path, where, o, "verdict")) ||
	    !(expected = need_str(path, where, o, "expected")) ||
	    !(outcome = need_str(path, where, o, "outcome")) ||
	    !(c->detail = need_str(path, where, o, "detail")) ||
	    !(c->abi = need_str(path, where, o, "abi")) ||
	    !(c->kernel = need_str(path, where, o, "kernel")) ||
	    !(c->actions = need_str(path, where, o, "actions")) ||
	    need_u64(path, where, o, "index", &c->index) ||
	    need_u64(path, where, o, "schedules", &c->schedules) ||
	    need_u64(path, where, o, "blocked", &c->blocked) ||
	    need_u64(path, where, o, "pruned", &c->pruned) ||
	    need_u64(path, where, o, "counter_path", &c->counter_path) ||
	    need_u64(path, where, o, "scripted_dropped", &c->scripted_dropped) ||
	    need_bool(path, where, o, "as_expected", &as_expected) ||
	    need_bool(path, where, o, "exhaustive", &exhaustive) ||
	    cell_cex(path, where, o, c) != 0 ||
	    cell_looks_like(path, where, o, c) != 0)
		return -1;
	if (c->blocked > c->schedules || c->counter_path > c->schedules ||
	    c->pruned > c->schedules)
		return sm_error("%s: %s\"blocked\" %" PRIu64 ", \"pruned\" %"
		                   PRIu64 " or \"counter_path\" %" PRIu64 " is more "
		                   "than its %" PRIu64 " schedules", path, where,
		                   c->blocked, c->pruned, c->counter_path,
		                   c->schedules);
	if (cell_names(path, where, o, c, arch, verdict, expected, outcome))
		return -1;
	if (sm_result_read(o, &c->res, err, sizeof(err)) < 0)
		return sm_error("%s: %s%s", path, where, err);
	const struct { const char *key, *v; bool name; } text[] = {
		{ "reader", c->reader, true }, { "name", c->name, true },
		{ "scenario", c->scenario, true },
		{ "abi", c->abi, true }, { "kernel", c->kernel, true },
		{ "actions", c->actions, false }, { "detail", c->detail, false },
		{ "counterexample", c->found, false },
		{ "minimised", c->min, false }, { "trace", c->trace, false },
		{ "expected_needs", c->corpus_needs, false },
	};
	for (size_t k = 0; k < sizeof(text) / sizeof(text[0]); k++)
		if (text[k].v &&
		    check_text(path, where, text[k].key, text[k].v, text[k].name))
			return -1;
	if (check_derived(path, where, c, outcome, as_expected, exhaustive,
	                  random))
		return -1;
	if (c->error && (jr_get(o, "wrong") || jr_get(o, "fault")))
		return sm_error("%s: %sa cell that could not run has no "
		                   "\"wrong\" or \"fault\"", path, where);
	return 0;
}

/* How many of total cells shard i of n holds. */
static uint64_t shard_size(uint64_t total, unsigned i, unsigned n)
{
	return total > i ? (total - i + n - 1) / n : 0;
}

/* The cells of a shard: each of its own, in order, all there. */
static int shard_cells(struct shard *s)
{
	const struct jr_value *cells = jr_get(&s->doc, "cells");
	char where[48];

	if (!cells || cells->type != JR_ARRAY)
		return sm_error("%s: no array \"cells\"", s->path);
	if (cells->n != shard_size(s->total, s->i, s->n))
		return sm_error("%s: %zu cells, but shard %u/%u of %" PRIu64
		                   " cells has %" PRIu64, s->path, cells->n, s->i,
		                   s->n, s->total, shard_size(s->total, s->i, s->n));
	if (!(s->cells = calloc(cells->n ? cells->n : 1, sizeof(*s->cells))))
		return sm_error("merge: out of memory");
	for (size_t k = 0; k < cells->n; k++) {
		struct sm_cell_report *c = &s->cells[k];
		snprintf(where, sizeof(where), "cell %zu: ", k);
		if (cells->items[k].type != JR_OBJECT)
			return sm_error("%s: %snot an object", s->path, where);
		if (cell_fields(s->path, where, &cells->items[k], c, s->random) != 0)
			return 2;
		if (c->index != s->i + k * s->n)
			return sm_error("%s: %sindex %" PRIu64 ", but shard %u/%u "
			                   "holds %" PRIu64 " there", s->path, where,
			                   c->index, s->i, s->n, s->i + k * s->n);
		s->ncells++;
	}
	return 0;
}

/* The document's "filter" (--actions, --without, --drop-scripted), when
 * it has one: 0, or not 0 after the line. */
static int shard_filter(struct shard *s)
{
	const struct jr_value *f = jr_get(&s->doc, "filter"), *lines;
	bool bad = false;

	if (!f)
		return 0;
	s->filter = true;
	s->only = opt_str(f, "actions", &bad);
	s->without = opt_str(f, "without", &bad);
	lines = jr_get(f, "scripted_dropped");
	if (f->type != JR_OBJECT || bad ||
	    need_bool(s->path, "\"filter\": ", f, "drop_scripted",
	              &s->drop_scripted) ||
	    !lines || lines->type != JR_ARRAY)
		return sm_error("%s: a bad \"filter\" (\"actions\", \"without\", "
		                   "\"drop_scripted\", \"scripted_dropped\")",
		                   s->path);
	if ((s->only && check_text(s->path, "\"filter\": ", "actions", s->only,
	                           false)) ||
	    (s->without && check_text(s->path, "\"filter\": ", "without",
	                              s->without, false)))
		return -1;
	if (!(s->dropped = calloc(lines->n ? lines->n : 1, sizeof(*s->dropped))))
		return sm_error("merge: out of memory");
	for (size_t i = 0; i < lines->n; i++) {
		const struct jr_value *l = &lines->items[i];
		struct sm_dropped_report *d = &s->dropped[i];
		int a = sm_arch_from_name(jr_str(jr_get(l, "arch")) ?
		                          jr_str(jr_get(l, "arch")) : "");
		d->scenario = jr_str(jr_get(l, "scenario"));
		if (a < 0 || !d->scenario || !jr_u64(jr_get(l, "lines"), &d->lines))
			return sm_error("%s: \"filter\": a bad \"scripted_dropped\" "
			                   "(an arch, a scenario and its lines)",
			                   s->path);
		if (check_text(s->path, "\"filter\": ", "scenario", d->scenario,
		               true))
			return -1;
		d->arch = (enum sm_arch)a;
		s->ndropped++;
	}
	return 0;
}

/* The document's header fields: 0, or 2 after the line. */
static int shard_header(struct shard *s)
{
	const struct jr_value *d = &s->doc;
	char note[8], err[256];

	if (d->type != JR_OBJECT)
		return sm_error("%s: not a JSON object", s->path);
	if (!(s->version = need_str(s->path, "", d, "version")) ||
	    !(s->sweep = need_str(s->path, "", d, "sweep")) ||
	    !(s->engine = need_str(s->path, "", d, "engine")) ||
	    !(s->shard = need_str(s->path, "", d, "shard")) ||
	    need_u64(s->path, "", d, "cells_total", &s->total) ||
	    need_u64(s->path, "", d, "bound", &s->bound) ||
	    need_u64(s->path, "", d, "random", &s->random) ||
	    need_u64(s->path, "", d, "seed", &s->seed) ||
	    need_u64(s->path, "", d, "time_limit", &s->time_limit))
		return 2;
	if (strcmp(s->version, SELFMON_VERSION))
		return sm_error("%s: made by selfmon %.40s, not by this selfmon "
		                   "(%s): merge the shards with the selfmon that "
		                   "made them", s->path, s->version, SELFMON_VERSION);
	/* I/N only: "auto" in a document must not read this environment */
	if (s->shard[0] < '0' || s->shard[0] > '9' ||
	    sm_shard_parse(s->shard, &s->i, &s->n, note, sizeof(note), err,
	                   sizeof(err)) < 0)
		return sm_error("%s: bad \"shard\" '%.40s' (I/N)", s->path,
		                   s->shard);
	if (s->total > 100000000)
		return sm_error("%s: %" PRIu64 " cells is more than a sweep has",
		                   s->path, s->total);
	if (shard_filter(s) != 0)
		return 2;
	return shard_cells(s);
}

/* One shard, read within what is left of the bytes all shards may hold
 * together (*left), which it then uses up. */
static int load_shard(struct shard *s, size_t *left)
{
	char why[256], err[512];
	size_t len;
	char *text = sm_read_input(s->path, *left, &len, why, sizeof(why));

	if (!text && *left < SM_SHARD_MAX_BYTES && strstr(why, "too large"))
		return sm_error("%s: the shards together are over merge's cap "
		                   "of %zu MiB", s->path, SM_SHARD_MAX_BYTES >> 20);
	if (!text)
		return sm_error("%s: %s", s->path, why);
	*left -= len;
	int rc = jr_parse(text, len, &s->doc, err, sizeof(err));
	free(text);
	if (rc < 0)
		return sm_error("%s: %s", s->path, err);
	return shard_header(s);
}

/* Does shard b belong with shard a?  0, or 2 after the line. */
static int same_sweep(const struct shard *a, const struct shard *b)
{
	const struct { const char *what; uint64_t x, y; } num[] = {
		{ "bound", b->bound, a->bound },
		{ "random", b->random, a->random },
		{ "seed", b->seed, a->seed },
		{ "time_limit", b->time_limit, a->time_limit },
	};

	if (strcmp(a->version, b->version))
		return sm_error("%s: made by selfmon %.40s, but %s by selfmon "
		                   "%.40s", b->path, b->version, a->path, a->version);
	if (strcmp(a->engine, b->engine))
		return sm_error("%s: engine %.40s, but %s has engine %.40s",
		                   b->path, b->engine, a->path, a->engine);
	for (size_t k = 0; k < sizeof(num) / sizeof(num[0]); k++)
		if (num[k].x != num[k].y)
			return sm_error("%s: %s %" PRIu64 ", but %s has %s %" PRIu64,
			                   b->path, num[k].what, num[k].x, a->path,
			                   num[k].what, num[k].y);
	if (strcmp(a->sweep, b->sweep) || a->total != b->total)
		return sm_error("%s: another sweep than %s (other readers, "
		                   "scenarios or --actions/--without)", b->path,
		                   a->path);
	if (a->n != b->n)
		return sm_error("%s: shard %u/%u, but %s is %u/%u: not one split "
		                   "of the sweep", b->path, b->i, b->n, a->path, a->i,
		                   a->n);
	return 0;
}

/* Every I of 0..N-1 exactly once: 0, or 2 after the line. */
static int all_shards(const struct merge *m)
{
	unsigned n = m->s[0].n, *who = malloc(n * sizeof(*who)), missing = 0;

	if (!who)
		return sm_error("merge: out of memory");
	for (unsigned i = 0; i < n; i++)
		who[i] = m->ns;
	for (unsigned k = 0; k < m->ns; k++) {
		const struct shard *s = &m->s[k];
		if (who[s->i] != m->ns) {
			sm_error("merge: shard %u/%u given twice: %s and %s", s->i,
			            n, m->s[who[s->i]].path, s->path);
			return free(who), 2;
		}
		who[s->i] = k;
	}
	for (unsigned i = 0; i < n; i++)
		missing += who[i] == m->ns;
	for (unsigned i = 0; missing && i < n; i++)
		if (who[i] == m->ns) {
			sm_error("merge: shard %u/%u is missing%s (%u of %u shards "
			            "given)", i, n, missing > 1 ? ", and more" : "",
			            m->ns, n);
			return free(who), 2;
		}
	free(who);
	return 0;
}

/* The cells of every shard in the sweep's order. */
static int join(struct merge *m)
{
	m->total = m->s[0].total;
	if (!(m->cell = calloc(m->total ? m->total : 1, sizeof(*m->cell))))
		return sm_error("merge: out of memory");
	for (unsigned k = 0; k < m->ns; k++) {
		for (size_t c = 0; c < m->s[k].ncells; c++)
			m->cell[m->s[k].cells[c].index] = m->s[k].cells[c];
		free(m->s[k].cells); /* one copy of the reports (their texts */
		m->s[k].cells = NULL; /* stay in the shard's tree) */
	}
	return 0;
}

/* The merged sweep as check's reports: one shard, 0/1, of the sweep. */
static struct sm_sweep_report sweep_report(const struct merge *m)
{
	const struct shard *s = &m->s[0];

	return (struct sm_sweep_report){
		.engine = s->engine, .bound = s->bound, .random = s->random,
		.seed = s->seed, .time_limit = s->time_limit, .shard = 0,
		.nshards = 1, .version = s->version, .sweep = s->sweep,
		.cells_total = s->total, .filter = s->filter,
		.drop_scripted = s->drop_scripted, .only = s->only,
		.without = s->without, .dropped = s->dropped,
		.ndropped = s->ndropped, .cells = m->cell, .n = m->total,
		.merged = m->ns,
	};
}

/* The outputs, as check's: the exit status. */
static int output(const struct merge *m)
{
	struct sm_sweep_report r = sweep_report(m);
	struct sm_tally t = sm_sweep_tally(&r);
	struct sm_out junit;
	char err[256];
	bool failed = false;

	if (m->junit) {
		if (sm_out_open(&junit, m->junit, err, sizeof(err)) < 0)
			return sm_error("merge: cannot write %s: %s", m->junit, err);
		failed = sm_render_junit(&r, &junit, m->junit, "merge") < 0;
	}
	failed |= sm_render_stdout(&r, m->tap, m->json, m->junit, "merge") < 0;
	return failed ? 2 : sm_table_status(&t);
}

static void free_merge(struct merge *m)
{
	for (unsigned k = 0; m->s && k < m->ns; k++) {
		jr_free(&m->s[k].doc);
		free(m->s[k].cells);
		free(m->s[k].dropped);
	}
	free(m->s);
	free(m->cell);
}

/* One option or operand: 0, 1 after --help, 2 after an error line. */
static int take(struct merge *m, int c, const char *val)
{
	if (c == 'h')
		return fputs(usage, stdout), 1;
	if (c == SM_OPT_BAD)
		return 2;
	if (c == SM_OPT_OPERAND)
		m->s[m->ns++].path = val;
	else if (c == O_JSON || c == O_TAP)
		*(c == O_JSON ? &m->json : &m->tap) = true;
	else if (c == O_JUNIT)
		m->junit = val;
	else /* in the table, but no case takes it: selfmon's own error */
		return sm_error("merge: internal error: option %d is not "
		                   "handled", c);
	return 0;
}

/* Options and the files: 0, 1 after --help, 2 after an error line. */
static int parse(int argc, char **argv, struct merge *m)
{
	struct sm_opt op;
	int c, rc;

	if (!(m->s = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*m->s))))
		return sm_error("merge: out of memory");
	sm_opt_init(&op, "merge", argc, argv, options);
	while ((c = sm_opt_next(&op)) != -1)
		if ((rc = take(m, c, op.arg)) != 0)
			return rc;
	if (sm_outputs_check("merge", m->tap, m->json, m->junit))
		return 2;
	if (!m->ns)
		return sm_error("merge: no shard given (selfmon merge "
		                   "PART.json...)");
	return 0;
}

/* Every step into m, which the caller frees: the exit status. */
static int steps(struct merge *m, int argc, char **argv)
{
	int rc = parse(argc, argv, m);
	size_t left = SM_SHARD_MAX_BYTES; /* for all shards together */

	for (unsigned k = 0; !rc && k < m->ns; k++)
		rc = load_shard(&m->s[k], &left);
	for (unsigned k = 1; !rc && k < m->ns; k++)
		rc = same_sweep(&m->s[0], &m->s[k]);
	if (!rc && !(rc = all_shards(m)))
		rc = join(m);
	if (rc)
		return rc == 1 ? 0 : rc;
	return output(m);
}

int cmd_merge(int argc, char **argv)
{
	struct merge m = { 0 };
	int rc = steps(&m, argc, argv);

	free_merge(&m);
	return rc;
}
