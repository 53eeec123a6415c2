/*
 * cmd_merge.c — `selfmon merge PART.json...`: the `check --shard I/N
 * --json` outputs of one sweep joined into one verdict table or JSON
 * document, with check's exit status.
 *
 * Owns: what a shard document must hold, which shards belong together
 * (same selfmon version, options and sweep identity, one of each I of the
 * same N, each with exactly its cells), and the merged table, document and
 * exit status.  Every derived field of a cell (outcome, as_expected,
 * exhaustive) is checked against what table.c derives from its primary
 * ones, names and texts against what check could write; the shards
 * together are read within one cap, so memory is bounded across them.
 * Reading JSON is json_read.c; the sweep identity is made by check
 * (shard.c).  Nothing is printed unless every shard is accepted.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "details.h"
#include "input.h"
#include "json.h"
#include "json_read.h"
#include "model.h"
#include "report.h"
#include "session.h"
#include "options.h"
#include "shard.h"
#include "table.h"
#include "verdict.h"

/* One cell of a shard: the fields the table needs (pointers into the
 * shard's tree) and the object itself for --json. */
struct mcell {
	const struct jr_value *obj;
	uint64_t index, schedules, counter_path;
	const char *arch, *reader, *scenario, *verdict, *expected, *outcome;
	const char *detail, *found, *min, *trace;
	int least_bound;   /* -1: none */
	bool as_expected;
};

struct shard {
	const char *path;
	struct jr_value doc;
	const char *version, *sweep, *engine, *shard;
	uint64_t total, bound, random, seed, time_limit;
	unsigned i, n;
	const struct jr_value *filter;  /* NULL: no --actions/--without */
	struct mcell *cells;
	size_t ncells;
};

struct merge {
	bool json;
	struct shard *s;
	unsigned ns;
	struct mcell **cell;  /* the whole sweep, by index */
	uint64_t total;
};

static const char usage[] =
	"usage: selfmon merge [--json] PART.json...\n\n"
	"Joins the outputs of 'selfmon check --shard I/N --json' (every shard\n"
	"I = 0..N-1 of one sweep, each once) into one verdict table, or with\n"
	"--json into one document as check writes it (shard \"0/1\").  Shards\n"
	"made by another selfmon version, with other options, readers or\n"
	"scenarios, or of another N are refused, as are missing and duplicated\n"
	"shards.\n\n"
	"Exit status: as check's, from the merged cells (0 every verdict as\n"
	"expected, 1 a reader failed or got an unexpected verdict, 3 some cell\n"
	"INCOMPLETE, 4 some cell UNSUPPORTED), 2 bad input or a cell that could\n"
	"not run.\n";

enum { O_JSON = SM_OPT_LONG };

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ "json", no_argument, O_JSON, NULL },
	{ 0 },
};

/* A string field that must be there: its text, or NULL after the line. */
static const char *need_str(const char *path, const char *where,
                            const struct jr_value *obj, const char *key)
{
	const char *s = jr_str(jr_get(obj, key));

	if (!s)
		usage_error("%s: %sno string \"%s\" (not the --json of 'selfmon "
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
	usage_error("%s: %sno whole number \"%s\" (not the --json of 'selfmon "
	            "check --shard', or of an older selfmon)", path, where, key);
	return -1;
}

static int need_bool(const char *path, const char *where,
                     const struct jr_value *obj, const char *key, bool *out)
{
	const struct jr_value *v = jr_get(obj, key);

	if (v && v->type == JR_BOOL)
		return *out = v->b, 0;
	usage_error("%s: %sno true/false \"%s\"", path, where, key);
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

/* A name or text of a cell: what check could have written (table.c's
 * names, input.c's text rule), so no shard can forge a line. */
static int check_text(const char *path, const char *where, const char *key,
                      const char *v, bool name)
{
	char why[96];

	if (name && (!v[0] || strlen(v) > 4096))
		return usage_error("%s: %s\"%s\" is empty or longer than 4096 "
		                   "bytes", path, where, key);
	if (sm_text_check(v, why, sizeof(why)) < 0)
		return usage_error("%s: %s\"%s\": %s", path, where, key, why);
	return 0;
}

/* The derived fields of a cell (outcome, as_expected, exhaustive) must be
 * what check derives from its primary ones (table.c): 0, or -1 after the
 * line.  Two facts are not in the JSON, so each value they could have is
 * tried: whether a verdict "ERROR" is selfmon's own error (the cell could
 * not run) or the engine's, and, for an unjudged cell ("expected": "-"),
 * the expectation it was not held to. */
static int check_derived(const char *path, const char *where,
                         const struct mcell *c, bool exhaustive, bool random)
{
	int v = sm_verdict_from_name(c->verdict), oc = sm_outcome_from_name(c->outcome);
	bool unjudged = !strcmp(c->expected, "-");
	int e = unjudged ? SM_V_PASS : sm_verdict_from_name(c->expected);

	for (int error = 0; error <= (v == SM_V_ERROR); error++)
		for (int hidden = 0; hidden <= unjudged; hidden++) {
			struct sm_cell_facts f = {
				.error = error, .unjudged = unjudged, .verdict = v,
				.expected = hidden ? -1 : e,
			};
			if ((int)sm_cell_outcome(&f) == oc &&
			    sm_cell_as_expected(&f) == c->as_expected &&
			    exhaustive == (!error && !random && v != SM_V_INCOMPLETE))
				return 0;
		}
	return usage_error("%s: %s\"outcome\" %s, \"as_expected\" %s and "
	                   "\"exhaustive\" %s do not follow from verdict %s, "
	                   "expected %s%s", path, where, c->outcome,
	                   c->as_expected ? "true" : "false",
	                   exhaustive ? "true" : "false", c->verdict, c->expected,
	                   random ? " under --random" : "");
}

/* The strings and numbers of one cell object: 0, or -1 after the line. */
static int cell_fields(const char *path, const char *where,
                       const struct jr_value *o, struct mcell *c, bool random)
{
	uint64_t u, blocked;
	bool bad = false, exhaustive;

	c->obj = o;
	if (!(c->arch = need_str(path, where, o, "arch")) ||
	    !(c->reader = need_str(path, where, o, "reader")) ||
	    !(c->scenario = need_str(path, where, o, "scenario")) ||
	    !(c->verdict = need_str(path, where, o, "verdict")) ||
	    !(c->expected = need_str(path, where, o, "expected")) ||
	    !(c->outcome = need_str(path, where, o, "outcome")) ||
	    !(c->detail = need_str(path, where, o, "detail")) ||
	    !need_str(path, where, o, "abi") || !need_str(path, where, o, "actions") ||
	    need_u64(path, where, o, "index", &c->index) ||
	    need_u64(path, where, o, "schedules", &c->schedules) ||
	    need_u64(path, where, o, "blocked", &blocked) ||
	    need_u64(path, where, o, "counter_path", &c->counter_path) ||
	    need_u64(path, where, o, "scripted_dropped", &u) ||
	    need_bool(path, where, o, "as_expected", &c->as_expected) ||
	    need_bool(path, where, o, "exhaustive", &exhaustive))
		return -1;
	c->found = opt_str(o, "counterexample", &bad);
	c->min = opt_str(o, "minimised", &bad);
	c->trace = opt_str(o, "trace", &bad);
	if (bad || !c->found != !c->min)
		return usage_error("%s: %sa bad counterexample, minimised or trace",
		                   path, where);
	const struct jr_value *lb = jr_get(o, "least_bound");
	c->least_bound = -1;
	if (lb) {
		if (!jr_u64(lb, &u) || u > SM_MAX_BOUND || !c->found)
			return usage_error("%s: %sa bad least_bound (a failure's, at "
			                   "most %d)", path, where, SM_MAX_BOUND);
		c->least_bound = (int)u;
	}
	if (blocked > c->schedules || c->counter_path > c->schedules)
		return usage_error("%s: %s\"blocked\" %" PRIu64 " or \"counter_path"
		                   "\" %" PRIu64 " is more than its %" PRIu64
		                   " schedules", path, where, blocked,
		                   c->counter_path, c->schedules);
	if (sm_verdict_from_name(c->verdict) < 0 ||
	    (strcmp(c->expected, "-") && sm_verdict_from_name(c->expected) < 0) ||
	    sm_outcome_from_name(c->outcome) < 0)
		return usage_error("%s: %sunknown verdict, expected verdict or "
		                   "outcome", path, where);
	if (sm_arch_from_name(c->arch) < 0)
		return usage_error("%s: %sunknown arch '%.40s'", path, where,
		                   c->arch);
	const struct { const char *key, *v; bool name; } text[] = {
		{ "reader", c->reader, true }, { "scenario", c->scenario, true },
		{ "detail", c->detail, false }, { "counterexample", c->found, false },
		{ "minimised", c->min, false }, { "trace", c->trace, false },
	};
	for (size_t k = 0; k < sizeof(text) / sizeof(text[0]); k++)
		if (text[k].v &&
		    check_text(path, where, text[k].key, text[k].v, text[k].name))
			return -1;
	return check_derived(path, where, c, exhaustive, random);
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
		return usage_error("%s: no array \"cells\"", s->path);
	if (cells->n != shard_size(s->total, s->i, s->n))
		return usage_error("%s: %zu cells, but shard %u/%u of %" PRIu64
		                   " cells has %" PRIu64, s->path, cells->n, s->i,
		                   s->n, s->total, shard_size(s->total, s->i, s->n));
	if (!(s->cells = calloc(cells->n ? cells->n : 1, sizeof(*s->cells))))
		return usage_error("merge: out of memory");
	for (size_t k = 0; k < cells->n; k++) {
		struct mcell *c = &s->cells[k];
		snprintf(where, sizeof(where), "cell %zu: ", k);
		if (cells->items[k].type != JR_OBJECT)
			return usage_error("%s: %snot an object", s->path, where);
		if (cell_fields(s->path, where, &cells->items[k], c, s->random) != 0)
			return 2;
		if (c->index != s->i + k * s->n)
			return usage_error("%s: %sindex %" PRIu64 ", but shard %u/%u "
			                   "holds %" PRIu64 " there", s->path, where,
			                   c->index, s->i, s->n, s->i + k * s->n);
		s->ncells++;
	}
	return 0;
}

/* The document's header fields: 0, or 2 after the line. */
static int shard_header(struct shard *s)
{
	const struct jr_value *d = &s->doc;
	char note[8], err[256];

	if (d->type != JR_OBJECT)
		return usage_error("%s: not a JSON object", s->path);
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
		return usage_error("%s: made by selfmon %.40s, not by this selfmon "
		                   "(%s): merge the shards with the selfmon that "
		                   "made them", s->path, s->version, SELFMON_VERSION);
	/* I/N only: "auto" in a document must not read this environment */
	if (s->shard[0] < '0' || s->shard[0] > '9' ||
	    sm_shard_parse(s->shard, &s->i, &s->n, note, sizeof(note), err,
	                   sizeof(err)) < 0)
		return usage_error("%s: bad \"shard\" '%.40s' (I/N)", s->path,
		                   s->shard);
	if (s->total > 100000000)
		return usage_error("%s: %" PRIu64 " cells is more than a sweep has",
		                   s->path, s->total);
	s->filter = jr_get(d, "filter");
	if (s->filter && s->filter->type != JR_OBJECT)
		return usage_error("%s: \"filter\" is not an object", s->path);
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
		return usage_error("%s: the shards together are over merge's cap "
		                   "of %zu MiB", s->path, SM_SHARD_MAX_BYTES >> 20);
	if (!text)
		return usage_error("%s: %s", s->path, why);
	*left -= len;
	int rc = jr_parse(text, len, &s->doc, err, sizeof(err));
	free(text);
	if (rc < 0)
		return usage_error("%s: %s", s->path, err);
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
		return usage_error("%s: made by selfmon %.40s, but %s by selfmon "
		                   "%.40s", b->path, b->version, a->path, a->version);
	if (strcmp(a->engine, b->engine))
		return usage_error("%s: engine %.40s, but %s has engine %.40s",
		                   b->path, b->engine, a->path, a->engine);
	for (size_t k = 0; k < sizeof(num) / sizeof(num[0]); k++)
		if (num[k].x != num[k].y)
			return usage_error("%s: %s %" PRIu64 ", but %s has %s %" PRIu64,
			                   b->path, num[k].what, num[k].x, a->path,
			                   num[k].what, num[k].y);
	if (strcmp(a->sweep, b->sweep) || a->total != b->total)
		return usage_error("%s: another sweep than %s (other readers, "
		                   "scenarios or --actions/--without)", b->path,
		                   a->path);
	if (a->n != b->n)
		return usage_error("%s: shard %u/%u, but %s is %u/%u: not one split "
		                   "of the sweep", b->path, b->i, b->n, a->path, a->i,
		                   a->n);
	return 0;
}

/* Every I of 0..N-1 exactly once: 0, or 2 after the line. */
static int all_shards(const struct merge *m)
{
	unsigned n = m->s[0].n, *who = malloc(n * sizeof(*who)), missing = 0;

	if (!who)
		return usage_error("merge: out of memory");
	for (unsigned i = 0; i < n; i++)
		who[i] = m->ns;
	for (unsigned k = 0; k < m->ns; k++) {
		const struct shard *s = &m->s[k];
		if (who[s->i] != m->ns) {
			usage_error("merge: shard %u/%u given twice: %s and %s", s->i,
			            n, m->s[who[s->i]].path, s->path);
			return free(who), 2;
		}
		who[s->i] = k;
	}
	for (unsigned i = 0; i < n; i++)
		missing += who[i] == m->ns;
	for (unsigned i = 0; missing && i < n; i++)
		if (who[i] == m->ns) {
			usage_error("merge: shard %u/%u is missing%s (%u of %u shards "
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
		return usage_error("merge: out of memory");
	for (unsigned k = 0; k < m->ns; k++)
		for (size_t c = 0; c < m->s[k].ncells; c++)
			m->cell[m->s[k].cells[c].index] = &m->s[k].cells[c];
	return 0;
}

static struct sm_tally count(const struct merge *m)
{
	struct sm_tally t = { 0 };

	for (uint64_t i = 0; i < m->total; i++) {
		const struct mcell *c = m->cell[i];
		unsigned *to[SM_NOUTCOMES] = {
			[SM_OC_AS_EXPECTED] = &t.as_expected,
			[SM_OC_UNEXPECTED] = &t.unexpected,
			[SM_OC_INCOMPLETE] = &t.incomplete,
			[SM_OC_UNSUPPORTED] = &t.unsupported,
			[SM_OC_UNJUDGED] = &t.unjudged, [SM_OC_ERROR] = &t.errors,
		};
		(*to[sm_outcome_from_name(c->outcome)])++; /* checked on load */
		t.runs += c->schedules;
	}
	return t;
}

/* A value of a shard's tree, as it was. */
static void put_value(struct json *js, const char *key,
                      const struct jr_value *v)
{
	switch (v->type) {
	case JR_NULL:
		json_raw(js, key, "null");
		return;
	case JR_BOOL:
		json_bool(js, key, v->b);
		return;
	case JR_NUMBER:
		json_raw(js, key, v->text);
		return;
	case JR_STRING:
		json_str(js, key, v->text);
		return;
	case JR_ARRAY: case JR_OBJECT:
		json_begin(js, key, v->type == JR_ARRAY ? '[' : '{');
		for (size_t i = 0; i < v->n; i++)
			put_value(js, v->type == JR_OBJECT ? v->keys[i] : NULL,
			          &v->items[i]);
		json_end(js, v->type == JR_ARRAY ? '[' : '{');
	}
}

/* check's document, as one shard 0/1 of the sweep. */
static void print_json(const struct merge *m, const struct sm_tally *t)
{
	const struct shard *s = &m->s[0];
	struct json js;

	json_init(&js, stdout);
	json_begin(&js, NULL, '{');
	json_str(&js, "engine", s->engine);
	json_u64(&js, "bound", s->bound);
	json_u64(&js, "random", s->random);
	json_str(&js, "shard", "0/1");
	json_str(&js, "version", s->version);
	json_str(&js, "sweep", s->sweep);
	json_u64(&js, "cells_total", s->total);
	json_u64(&js, "seed", s->seed);
	json_u64(&js, "time_limit", s->time_limit);
	if (s->filter)
		put_value(&js, "filter", s->filter);
	json_begin(&js, "cells", '[');
	for (uint64_t i = 0; i < m->total; i++)
		put_value(&js, NULL, m->cell[i]->obj);
	json_end(&js, '[');
	sm_table_json_counts(&js, t);
	json_end(&js, '{');
	putchar('\n');
}

/* check's lines for --actions, --without and --drop-scripted under the
 * header of arch (print_filter in cmd_check.c). */
static void print_filter(const struct jr_value *f, const char *arch)
{
	const char *only = jr_str(jr_get(f, "actions"));
	const char *without = jr_str(jr_get(f, "without"));
	const struct jr_value *drop = jr_get(f, "drop_scripted");
	const struct jr_value *lines = jr_get(f, "scripted_dropped");
	uint64_t n;

	if (!f)
		return;
	if (only)
		printf("kernel actions injected: %s (--actions)\n", only);
	if (without)
		printf("never injected: %s (--without)\n", without);
	for (size_t i = 0; lines && lines->type == JR_ARRAY && i < lines->n; i++) {
		const struct jr_value *l = &lines->items[i];
		const char *a = jr_str(jr_get(l, "arch"));
		const char *scn = jr_str(jr_get(l, "scenario"));
		if (a && scn && !strcmp(a, arch) && jr_u64(jr_get(l, "lines"), &n))
			printf("%s: %" PRIu64 " scripted 'at' line%s skipped "
			       "(--drop-scripted)\n", scn, n, n == 1 ? "" : "s");
	}
	if (!drop || drop->type != JR_BOOL || !drop->b)
		printf("scripted 'at' lines still run (--drop-scripted skips those "
		       "of the actions left out)\n");
}

/* A merged cell as a row of check's table. */
static void print_row(const struct mcell *c)
{
	struct sm_table_row r = {
		.reader = c->reader, .scenario = c->scenario, .verdict = c->verdict,
		.expected = c->expected, .as_expected = c->as_expected,
		.unjudged = !strcmp(c->expected, "-"),
		.incomplete = !strcmp(c->outcome, "incomplete"),
		.unsupported = !strcmp(c->verdict, "UNSUPPORTED"),
		.runs = c->schedules, .counter_path = c->counter_path,
		.cex = c->min, .least_bound = c->least_bound,
		.error = !strcmp(c->outcome, "error") ? c->detail : NULL,
	};
	sm_table_row(&r);
}

/* The table of check (print_table and print_details in cmd_check.c): 0,
 * or -1 out of memory. */
static int print_table(const struct merge *m)
{
	const struct shard *s = &m->s[0];
	const char *prev = NULL;

	for (uint64_t i = 0; i < m->total; i++) {
		const struct mcell *c = m->cell[i];
		if (!prev || strcmp(prev, c->arch)) {
			printf("%s%s, %s engine, bound %" PRIu64 "%s\n", prev ? "\n" : "",
			       c->arch, s->engine, s->bound, s->random ? ", random" : "");
			print_filter(s->filter, c->arch);
			sm_table_columns();
			prev = c->arch;
		}
		print_row(c);
	}
	struct sm_detail *d = calloc(m->total ? m->total : 1, sizeof(*d));
	size_t n = 0;
	if (!d)
		return -1;
	for (uint64_t i = 0; i < m->total; i++) {
		const struct mcell *c = m->cell[i];
		if (!strcmp(c->outcome, "error") || c->as_expected)
			continue;
		d[n++] = (struct sm_detail){
			.reader = c->reader, .scenario = c->scenario,
			.verdict = c->verdict, .expected = c->expected,
			.detail = c->detail, .found = c->found, .min = c->min,
			.trace = c->trace,
		};
	}
	int rc = sm_details_print(d, n);
	free(d);
	return rc;
}

static void print_summary(const struct merge *m, const struct sm_tally *t)
{
	sm_table_summary(m->total, t);
	printf("; %" PRIu64 " schedules, %u shard%s merged%s\n", t->runs, m->ns,
	       m->ns == 1 ? "" : "s", m->s[0].random
	       ? "; random sampling, not exhaustive" : "");
}

static void free_merge(struct merge *m)
{
	for (unsigned k = 0; m->s && k < m->ns; k++) {
		jr_free(&m->s[k].doc);
		free(m->s[k].cells);
	}
	free(m->s);
	free(m->cell);
}

/* Options and the files: 0, 1 after --help, 2 after an error line. */
static int parse(int argc, char **argv, struct merge *m)
{
	struct sm_opt op;
	int c;

	if (!(m->s = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*m->s))))
		return usage_error("merge: out of memory");
	sm_opt_init(&op, "merge", argc, argv, options);
	while ((c = sm_opt_next(&op)) != -1) {
		if (c == 'h')
			return fputs(usage, stdout), 1;
		if (c == SM_OPT_BAD)
			return 2;
		if (c == O_JSON)
			m->json = true;
		else
			m->s[m->ns++].path = op.arg;
	}
	if (!m->ns)
		return usage_error("merge: no shard given (selfmon merge "
		                   "PART.json...)");
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct merge m = { 0 };
	int rc = parse(argc, argv, &m);

	size_t left = SM_SHARD_MAX_BYTES; /* for all shards together */
	for (unsigned k = 0; !rc && k < m.ns; k++)
		rc = load_shard(&m.s[k], &left);
	for (unsigned k = 1; !rc && k < m.ns; k++)
		rc = same_sweep(&m.s[0], &m.s[k]);
	if (!rc && !(rc = all_shards(&m)))
		rc = join(&m);
	if (rc) {
		free_merge(&m);
		return rc == 1 ? 0 : rc;
	}
	struct sm_tally t = count(&m);
	if (m.json) {
		print_json(&m, &t);
	} else {
		if (print_table(&m) < 0) {
			free_merge(&m);
			return usage_error("merge: out of memory");
		}
		print_summary(&m, &t);
	}
	free_merge(&m);
	return sm_table_status(&t);
}
