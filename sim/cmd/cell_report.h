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
#include "session.h"
#include "verdict.h"

#define SM_LOOKALIKE_MAX 4 /* corpus faults named for one failure */

struct sm_cell_report {
	uint64_t index;            /* in the whole sweep, all shards */
	enum sm_arch arch;
	const char *reader, *abi, *scenario;
	const char *name;          /* check --name, or NULL: see
	                            * sm_cell_report_name() */
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
	/* a user's failure with a corpus fault's signature: those corpus
	 * readers, the first the one to name (lookalike.h; the JSON's
	 * "looks_like") */
	const struct sm_reader *looks_like[SM_LOOKALIKE_MAX];
	unsigned nlooks_like;
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

/* How a cell counts in the summary and the exit status: the JSON's
 * "outcome". */
enum sm_outcome {
	SM_OC_AS_EXPECTED, SM_OC_UNEXPECTED, SM_OC_INCOMPLETE, SM_OC_UNSUPPORTED,
	SM_OC_UNJUDGED, SM_OC_ERROR, SM_NOUTCOMES
};
extern const char *const sm_outcome_name[SM_NOUTCOMES];
int sm_outcome_from_name(const char *s); /* -1: none */

/* What a cell is for a CI system.  PASS also covers a built-in reader
 * that got the failing verdict it is declared to get. */
enum sm_case_kind {
	SM_CASE_PASS,
	SM_CASE_FAILURE,   /* a reader failed or missed its expected verdict */
	SM_CASE_ERROR,     /* selfmon's own error: the cell could not run */
	SM_CASE_SKIPPED,   /* INCOMPLETE or UNSUPPORTED: not judged in full */
};

/* Derived from the primary fields (error, verdict, expected, unjudged)
 * alone, by check when it writes a cell and by merge when it reads one
 * back. */
enum sm_outcome sm_cell_report_outcome(const struct sm_cell_report *c);
/* Not selfmon's error, and unjudged or the verdict expected ("as_expected"
 * in the JSON). */
bool sm_cell_report_as_expected(const struct sm_cell_report *c);
/* INCOMPLETE where PASS was expected (not every schedule judged), or
 * UNSUPPORTED: the table's "not every schedule judged" mark, JUnit's
 * skipped case. */
bool sm_cell_report_incomplete(const struct sm_cell_report *c);
/* Every schedule judged: not selfmon's error, not --random (random is
 * the sweep's), not INCOMPLETE. */
bool sm_cell_report_exhaustive(const struct sm_cell_report *c,
                               uint64_t random);
enum sm_case_kind sm_cell_report_kind(const struct sm_cell_report *c);
/* "ERROR" for selfmon's error, else the verdict's name. */
const char *sm_cell_report_verdict(const struct sm_cell_report *c);
/* The expected verdict's name, or "-" (unjudged). */
const char *sm_cell_report_expected(const struct sm_cell_report *c);
/* The reader's name in the table, TAP and JUnit: check --name, else a
 * built-in's name, or a user's FILE:SYMBOL (its PATH's directories
 * dropped: they are the machine's, not the reader's). */
const char *sm_cell_report_name(const struct sm_cell_report *c);

/* The cells' outcomes (`outcome` in check --json), and their schedules. */
struct sm_tally {
	unsigned as_expected, unexpected, incomplete, unsupported, unjudged;
	unsigned errors;
	uint64_t runs;
};
struct sm_tally sm_sweep_tally(const struct sm_sweep_report *s);

#endif
