/*
 * prune.h — schedules whose state the explorer has already been in.
 *
 * Two branch points with equal state (everything a snapshot saves, the
 * model and the run's position: state_hash.h), the same number of actions
 * still to place, and the same set of truth values in the window so far
 * have the same schedules after them, with the same verdicts: the oracle
 * judges a value against the set of the window's values, and the rest of
 * the window follows from the state.  So the second one's subtree is
 * counted from the first's and not run.  Exploration is depth-first and
 * stops at the first failure, so a subtree counted this way held none,
 * and the failure found is the one an unpruned exploration finds.
 */
#ifndef SELFMON_PRUNE_H
#define SELFMON_PRUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "session.h"

/* The window's set of truth values, hashed as it grows: the sum of a
 * 128-bit hash of each value where it differs from the one before (equal
 * neighbours are one value of the set; a value seen again after others
 * counts again, so equal sums imply equal sets, not the converse). */
struct sm_window_hash {
	uint64_t sum[2];
	struct sm_truth last;
	unsigned n;          /* samples hashed */
	/* a two-call ABI's read runs: samples from here on are the read's,
	 * a set of their own (the oracle pairs the two sets); 0: one set */
	unsigned split;
};
/* Hash samples[w->n .. n) into w. */
void sm_window_hash_add(struct sm_window_hash *w, const struct sm_truth *samples,
                        unsigned n);

/* Where a subtree starts: a node's start (its own run and its children),
 * or a branch point of its run (its children from there on). */
enum sm_prune_kind { SM_PRUNE_NODE, SM_PRUNE_POINT };

struct sm_prune_key {
	uint64_t h[2];
};
/* The key of the session's settled state with ops->hash. */
struct sm_prune_key sm_prune_key(struct sm_session *s,
                                 const struct sm_engine_ops *ops,
                                 const struct sm_window_hash *w,
                                 enum sm_prune_kind kind, unsigned left);

/* What a subtree held: its schedules, the BLOCKED ones and those on the
 * counter path (sm_run.counter_path), its own pruned ones included. */
struct sm_prune_counts {
	uint64_t runs, blocked, counter_path;
};

/* Explored subtrees by key, with their counts. */
struct sm_prune;
struct sm_prune *sm_prune_new(void); /* NULL when out of memory */
void sm_prune_free(struct sm_prune *p);
/* A finished subtree with this key: its counts, and true. */
bool sm_prune_find(const struct sm_prune *p, struct sm_prune_key k,
                   struct sm_prune_counts *n);
/* Record a finished subtree.  When the table is at its size limit
 * (SM_PRUNE_MAX entries) or memory runs out, it is not recorded and
 * sm_prune_full() says so: later equal subtrees are run, not counted. */
void sm_prune_add(struct sm_prune *p, struct sm_prune_key k,
                  const struct sm_prune_counts *n);
bool sm_prune_full(const struct sm_prune *p);
#define SM_PRUNE_MAX (3u << 20) /* 3 in every 4 of 4M slots: 160 MiB */

#endif
