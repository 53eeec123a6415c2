/*
 * cell_report.h — a sweep's results as data: one sm_cell_report per cell
 * (everything a cell of `check --json` holds, with typed fields) and the
 * sweep's header (sm_sweep_report: engine, bound, filter, version...).
 * `check` fills them from its finished cells, `merge` from the shards'
 * JSON; render.h prints them in every format.
 *
 * Owns: the fields and what is derived from them alone (a cell's outcome,
 * whether it met its expectation, whether it was explored exhaustively,
 * what it is for a CI report, the counts of a sweep), so that check and
 * merge derive them once.  It must not know how a cell was run or where
 * its fields were read.
 */
#ifndef SELFMON_CELL_REPORT_H
#define SELFMON_CELL_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "report.h"
#include "session.h"
#include "table.h"
#include "verdict.h"

struct sm_cell_report {
	uint64_t index;            /* in the whole sweep, all shards */
	enum sm_arch arch;
	const char *reader, *abi, *scenario;
	const char *kernel;        /* the kernel's text ("base", variants) */
	bool error;                /* selfmon's own: the cell could not run */
	enum sm_verdict verdict;   /* SM_V_ERROR with error */
	bool unjudged;             /* held to no expectation */
	int expected;              /* an enum sm_verdict; -1: none known */
	/* what the corpus declares of a failure expected (has_corpus) */
	bool has_corpus;
	uint64_t corpus_least_bound;
	const char *corpus_needs;
	uint64_t schedules, blocked, pruned, counter_path;
	const char *actions;       /* the actions injected, as text */
	uint64_t scripted_dropped;
	const char *detail;        /* the verdict's sentence, or the error */
	/* the result's fields (wrong values, a fault: result_json.h); its
	 * detail is not read, the one above is */
	struct sm_result res;
	int least_bound;           /* a failure's, -1: none known */
	const char *found, *min;   /* a failure's schedule lines, or NULL */
	const char *trace;         /* with them: "" none written */
	double seconds;            /* exploring it took (0: not known) */
	/* explore's statistics line (sm_sweep_report.stats) */
	uint64_t cuts;
	bool pruning, prune_full;
};

/* A scenario's scripted lines skipped by --drop-scripted. */
struct sm_dropped_report {
	enum sm_arch arch;
	const char *scenario;
	uint64_t lines;
};

struct sm_sweep_report {
	const char *engine;
	uint64_t bound, random, seed, time_limit;
	unsigned shard, nshards;   /* "I/N" in the JSON */
	const char *version, *sweep; /* the sweep's identity (shard.h) */
	uint64_t cells_total;
	bool kernel_given;         /* --kernel: name it in every header */
	/* --actions / --without / --drop-scripted (filter: any given) */
	bool filter, drop_scripted;
	const char *only, *without; /* NULL: not given */
	const struct sm_dropped_report *dropped;
	size_t ndropped;
	const struct sm_cell_report *cells;
	size_t n;
	bool stats;                /* explore: a line of statistics a cell */
	/* the summary's end: the seconds taken (check), or how many shards
	 * were merged (merge, when not 0) */
	double seconds;
	unsigned merged;
};

/* The cell's primary fields, from which table.c derives the rest. */
struct sm_cell_facts sm_cell_report_facts(const struct sm_cell_report *c);
enum sm_outcome sm_cell_report_outcome(const struct sm_cell_report *c);
bool sm_cell_report_as_expected(const struct sm_cell_report *c);
/* Every schedule judged: not selfmon's error, not --random (random is
 * the sweep's), not INCOMPLETE. */
bool sm_cell_report_exhaustive(const struct sm_cell_report *c,
                               uint64_t random);
enum sm_case_kind sm_cell_report_kind(const struct sm_cell_report *c);
/* "ERROR" for selfmon's error, else the verdict's name. */
const char *sm_cell_report_verdict(const struct sm_cell_report *c);
/* The expected verdict's name, or "-" (unjudged). */
const char *sm_cell_report_expected(const struct sm_cell_report *c);
/* The counts of the cells' outcomes and their schedules. */
struct sm_tally sm_sweep_tally(const struct sm_sweep_report *s);

#endif
