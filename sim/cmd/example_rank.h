/*
 * example_rank.h — which failing example explain-bug shows: of the
 * bundled scenarios where a reader fails, the one that shows its fault
 * most plainly, and one line that says why.
 *
 * Owns the rule, as a table of criteria tried in order (example_rank.c):
 *   1. it injects an action the reader's fault names (list.h `shows`:
 *      "reset" for no_zero_ext_fix), so the listing shows that action;
 *   2. a local writer (the page written at once between two steps) over
 *      a remote one (its stores landing one by one, never named);
 *   3. fewer injected actions;
 *   4. a scenario about that action: it scripts it too (an `at` line,
 *      as x86_reset does reset), so its file and its other lines are
 *      about the fault;
 *   5. fewer steps executed;
 *   6. the order found in: arch (x86_64, arm64, riscv64), then scenario
 *      name.
 * It searches nothing and runs nothing: the command collects the
 * examples (cmd_explain_bug.c).
 */
#ifndef SELFMON_EXAMPLE_RANK_H
#define SELFMON_EXAMPLE_RANK_H

#include <stddef.h>

#include "explore.h"
#include "reader.h"
#include "scenario.h"

struct json;

/* One failing example: a bundled scenario of one arch and the minimised
 * counterexample the reader fails there with. */
struct sm_example {
	char *scenario;          /* the bundled name (owned) */
	enum sm_arch arch;
	struct sm_scenario scn;  /* as explored: the action filter applied */
	struct sm_cell cell;     /* cell.min the counterexample, cell.res its
	                          * result (its steps) */
	unsigned left_out;       /* the scenario's own actions filtered out */
	bool foreign;            /* actions added or scripted lines dropped */
	unsigned order;          /* found order: the last tie-breaker */
};

/* Sort ex[0..n) best first for reader r (insertion sort: n is small). */
void sm_example_sort(const struct sm_reader *r, struct sm_example *ex,
                     unsigned n);
/* Why ex[0] of the n sorted examples was chosen, one line:
 * "chosen of 18 failing examples: shows reset, the action the fault
 * names; local writer; 1 action; x86_reset scripts reset too; 76 steps". */
void sm_example_why(const struct sm_reader *r, const struct sm_example *ex,
                    unsigned n, char *buf, size_t len);
/* The same as JSON members: "rule" (the criteria's keys in order),
 * "chosen" (the line) and "candidates", every example best first with
 * its schedule, verdict and keys. */
void sm_example_json(struct json *j, const struct sm_reader *r,
                     const struct sm_example *ex, unsigned n);

#endif
