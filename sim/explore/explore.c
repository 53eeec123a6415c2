/*
 * explore.c — which schedules to run (README.md, Checking readers).
 *
 * Owns: exhaustive depth-first exploration of every schedule of at most
 * `bound` choices: injected kernel actions from the scenario's action set,
 * placed only before observing instructions (page loads and trapped
 * instructions: an action between two other instructions is seen first by
 * the next observing one, so merging those points keeps the search
 * exhaustive), and the CPU's choices at the reads the engine marks as
 * such (sm_session_stale_point(): an arm64 read of PMXEVCNTR_EL0 that may
 * use the PMSELR_EL0 selection from before its last write), taken after
 * the actions at the same step;
 * with engine snapshots a shared prefix is executed once; a failure is
 * the first of its least bound (least_bound()).  Also seeded
 * random sampling and minimisation of a failing schedule (its one-line
 * form is schedule_line.c's).  It must not know how an engine executes,
 * nor where the bundled scenarios are (sim/cmd/bundled.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "explore.h"
#include "prune.h"

struct ctx {
	struct timespec t0;     /* the cell's start, for its time limit */
	struct sm_session *s;
	const struct sm_engine_ops *ops;
	const struct sm_explore_opts *o;
	unsigned bound;         /* of this exhaustive exploration */
	struct sm_cell *cell;
	bool stale_left_out;    /* a stale read not taken (opts.no_stale),
	                         * in any pass: the cell's, when it ends */
	enum sm_action_kind actions[SM_NACTIONS];
	unsigned nactions;
	/* snapshots per depth, reused by every sibling: a branch's state
	 * where its run starts, and where its next child branches off */
	void *base[SM_MAX_BOUND + 1], *cursor[SM_MAX_BOUND + 1];
	/* explored subtrees (NULL: every schedule is run), and per depth the
	 * window's set hash up to the branch point being explored */
	struct sm_prune *prune;
	struct sm_window_hash win[SM_MAX_BOUND + 1];
};

/* A branch point's key, and its subtree's start counts. */
struct mark {
	struct sm_prune_key k;
	struct sm_prune_counts n;
};

static void add(struct sm_schedule *sch, uint64_t step, enum sm_action_kind k)
{
	sch->item[sch->n].step = step;
	sch->item[sch->n].kind = k;
	sch->n++;
}

/* Does the cell's exploration stop here: a failure, or selfmon's own
 * error? */
static bool stops(enum sm_verdict v)
{
	return sm_verdict_fails(v) || sm_verdict_selfmon(v);
}

/* Past the cell's time limit?  (A clock read costs ~1% of a run.) */
static bool out_of_time(struct ctx *c)
{
	struct timespec t;

	if (!c->o->time_limit)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec - c->t0.tv_sec >= (time_t)c->o->time_limit;
}

/* Asked to stop (o->stop: check's Ctrl-C)? */
static bool stopped(const struct ctx *c)
{
	return c->o->stop && atomic_load_explicit(c->o->stop,
	                                          memory_order_relaxed);
}

/* Judge a finished run: true when exploration stops. */
static bool record(struct ctx *c, const struct sm_schedule *sch)
{
	c->cell->runs++;
	if (c->o->progress)
		atomic_fetch_add_explicit(c->o->progress, 1, memory_order_relaxed);
	if (!c->cell->timed_out && (out_of_time(c) || stopped(c)))
		c->cell->timed_out = true;
	if (c->cell->timed_out)
		return true;
	if (c->s->res.verdict == SM_V_BLOCKED)
		c->cell->blocked++;
	c->cell->counter_path += c->s->run.counter_path;
	if (!stops(c->s->res.verdict))
		return false;
	c->cell->verdict = c->s->res.verdict;
	c->cell->found = *sch;
	c->cell->res = c->s->res;
	return true;
}

/* Out of memory while exploring: selfmon's own error, which stops the
 * cell (its verdict ERROR, exit 2).  Returns true. */
static bool no_memory(struct ctx *c, const struct sm_schedule *sch)
{
	c->cell->verdict = SM_V_ERROR;
	c->cell->found = *sch;
	sm_result_set(&c->cell->res, SM_V_ERROR, "selfmon error: out of memory "
	              "while exploring (after %" PRIu64 " schedules)",
	              c->cell->runs);
	return true;
}

/* The step of the schedule's last choice, action or stale read. */
static uint64_t last_step(const struct sm_schedule *sch)
{
	uint64_t a = sch->n ? sch->item[sch->n - 1].step : 0;
	uint64_t b = sch->nstale ? sch->stale[sch->nstale - 1] : 0;

	return a > b ? a : b;
}

/* The stale read at `step` as the schedule's next choice. */
static void add_stale(struct sm_schedule *sch, uint64_t step)
{
	sch->stale[sch->nstale++] = step;
}

/* Without its i-th choice: the actions first, then the stale reads. */
static void drop_choice(struct sm_schedule *t, unsigned i)
{
	if (i < t->n) {
		memmove(&t->item[i], &t->item[i + 1],
		        (t->n - i - 1) * sizeof(t->item[0]));
		t->n--;
	} else {
		i -= t->n;
		memmove(&t->stale[i], &t->stale[i + 1],
		        (t->nstale - i - 1) * sizeof(t->stale[0]));
		t->nstale--;
	}
}

/* With pruning, at depth d (the schedule's actions so far): bring the
 * window's set hash to here, and if a subtree of this kind and this state
 * was explored, count its schedules and return true (not run).  Else
 * m holds the key and the counts from which this subtree's are taken. */
static bool cut(struct ctx *c, unsigned d, enum sm_prune_kind kind,
                struct mark *m)
{
	struct sm_cell *cell = c->cell;
	struct sm_prune_counts n;

	sm_session_settle(c->s);
	c->win[d].split = c->s->run.call ? c->s->run.split : 0;
	sm_window_hash_add(&c->win[d], c->s->samples, c->s->run.nsamples);
	if (d == 0) /* the root: its only subtrees are its own */
		return false;
	m->k = sm_prune_key(c->s, c->ops, &c->win[d], kind, c->bound - d);
	if (sm_prune_find(c->prune, m->k, &n)) {
		cell->runs += n.runs;
		cell->blocked += n.blocked;
		cell->counter_path += n.counter_path;
		cell->pruned += n.runs;
		cell->cuts++;
		return true;
	}
	m->n = (struct sm_prune_counts){ cell->runs, cell->blocked,
	                                 cell->counter_path };
	return false;
}

/* An explored subtree into the table: what was counted since m. */
static void explored(struct ctx *c, const struct mark *m)
{
	struct sm_prune_counts n = {
		c->cell->runs - m->n.runs, c->cell->blocked - m->n.blocked,
		c->cell->counter_path - m->n.counter_path,
	};

	sm_prune_add(c->prune, m->k, &n);
}

static bool ended(struct ctx *c)
{
	return stops(c->cell->verdict) || c->cell->timed_out;
}

/* With snapshots: the session is at the state right after sch's last
 * choice (or at the call).  Run on to the end, then for each observing
 * step from `after` on and each action, and at the CPU's choice points
 * the stale read, branch from a snapshot taken there (a stale read at a
 * step comes after any action there: its child branches from the next
 * step on).  A schedule at the bound has no children: its run needs no
 * snapshot.  With pruning, a node or a branch point whose subtree was
 * explored from an equal state is counted, not run (prune.h). */
static bool dfs_snap(struct ctx *c, const struct sm_schedule *sch,
                     uint64_t after)
{
	struct sm_session *s = c->s;
	unsigned d = sm_schedule_len(sch);
	void **base = &c->base[d], **cursor = &c->cursor[d];
	unsigned from = s->run.npoints, cuts = 0;
	bool failed = false;
	uint64_t *pts = NULL;
	uint8_t *stale = NULL;
	struct mark node, *marks = NULL;

	if (d == c->bound) {
		c->ops->run(s, UINT64_MAX);
		record(c, sch);
		return ended(c);
	}
	if (c->prune && cut(c, d, SM_PRUNE_NODE, &node))
		return false;
	if (!(*base = c->ops->save(s, *base)))
		return no_memory(c, sch);
	c->ops->run(s, UINT64_MAX);
	if (record(c, sch))
		goto out;
	unsigned np = s->run.npoints - from;
	if (!(pts = malloc((np + 1) * sizeof(*pts))) ||
	    !(stale = malloc(np + 1)) ||
	    (c->prune && !(marks = malloc((np + 1) * sizeof(*marks))))) {
		failed = no_memory(c, sch);
		goto out;
	}
	memcpy(pts, s->points + from, np * sizeof(*pts));
	memcpy(stale, s->stale + from, np);
	c->ops->restore(s, *base);
	for (unsigned k = 0; k < np && !failed; k++) {
		if (pts[k] < after)
			continue;
		if (!c->ops->run(s, pts[k]))
			break; /* cannot happen: runs are deterministic */
		if (c->prune && cut(c, d, SM_PRUNE_POINT, &marks[cuts]))
			break;
		cuts += c->prune && d > 0;
		if (!(*cursor = c->ops->save(s, *cursor))) {
			failed = no_memory(c, sch);
			break;
		}
		for (unsigned a = 0; a < c->nactions && !failed; a++) {
			if (a > 0) /* the first starts where the cursor was saved */
				c->ops->restore(s, *cursor);
			if (sm_session_apply(s, c->actions[a]) <= 0)
				continue; /* changes nothing: same as the parent */
			struct sm_schedule child = *sch;
			add(&child, pts[k], c->actions[a]);
			c->win[d + 1] = c->win[d];
			failed = dfs_snap(c, &child, 0);
		}
		c->stale_left_out |= stale[k] && c->o->no_stale;
		if (stale[k] && !failed && !c->o->no_stale) {
			c->ops->restore(s, *cursor);
			s->run.stale_at = pts[k] + 1; /* the CPU's other outcome */
			struct sm_schedule child = *sch;
			add_stale(&child, pts[k]);
			c->win[d + 1] = c->win[d];
			failed = dfs_snap(c, &child, pts[k] + 1);
		}
		c->ops->restore(s, *cursor);
	}
	if (!failed && !ended(c) && c->prune && d > 0) {
		for (unsigned i = 0; i < cuts; i++)
			explored(c, &marks[i]);
		explored(c, &node);
	}
out:
	free(pts);
	free(stale);
	free(marks);
	return failed || ended(c);
}

void sm_run_schedule(struct sm_session *s, const struct sm_schedule *sch)
{
	const struct sm_engine_ops *ops = sm_engine_ops(s->engine);

	s->run.sched = sch;
	ops->begin(s);
	ops->run(s, UINT64_MAX);
	sm_session_settle(s); /* the whole window, for its readers */
	s->run.sched = NULL;
}

/* Without snapshots: every schedule re-executed from the call.  (Only
 * the native engine has none, and it has no CPU choices: no stale read
 * to branch on.) */
static bool dfs_rerun(struct ctx *c, const struct sm_schedule *sch)
{
	struct sm_session *s = c->s;

	sm_run_schedule(s, sch);
	if (record(c, sch))
		return true;
	if (sm_schedule_len(sch) == c->bound)
		return false;
	uint64_t from = last_step(sch);
	unsigned np = 0;
	uint64_t *pts = malloc((s->run.npoints + 1) * sizeof(*pts));
	if (!pts)
		return no_memory(c, sch);
	for (unsigned k = 0; k < s->run.npoints; k++)
		if (s->points[k] >= from)
			pts[np++] = s->points[k];
	bool failed = false;
	for (unsigned k = 0; k < np && !failed; k++)
		for (unsigned a = 0; a < c->nactions && !failed; a++) {
			struct sm_schedule child = *sch;
			add(&child, pts[k], c->actions[a]);
			failed = dfs_rerun(c, &child);
		}
	free(pts);
	return failed;
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Random schedules: grow each one choice at a time at a random observing
 * step of the run so far: an action, or at a choice point the stale
 * read. */
static void random_runs(struct ctx *c)
{
	struct sm_session *s = c->s;
	uint64_t x = c->o->seed ? c->o->seed : 0x9e3779b97f4a7c15ull;

	for (unsigned i = 0; i < c->o->random_runs; i++) {
		struct sm_schedule sch = { 0 };
		unsigned len = 1 + (unsigned)(rnd(&x) % (c->o->bound ? c->o->bound : 1));
		sm_run_schedule(s, &sch);
		for (unsigned k = 0; k < len && s->run.npoints && c->nactions; k++) {
			uint64_t from = last_step(&sch);
			unsigned first = 0;
			while (first < s->run.npoints && s->points[first] < from)
				first++;
			if (first == s->run.npoints)
				break;
			unsigned i = first + (unsigned)(rnd(&x) % (s->run.npoints - first));
			uint64_t p = s->points[i];
			bool st = s->stale[i] &&
			          (!sch.nstale || p > sch.stale[sch.nstale - 1]);
			c->stale_left_out |= st && c->o->no_stale;
			st = st && !c->o->no_stale;
			unsigned pick = (unsigned)(rnd(&x) % (c->nactions + st));
			if (pick == c->nactions)
				add_stale(&sch, p);
			else
				add(&sch, p, c->actions[pick]);
			sm_run_schedule(s, &sch);
		}
		if (record(c, &sch))
			return;
	}
}

/* Drop choices (actions, stale reads) while the schedule still fails. */
static void minimise(struct ctx *c)
{
	struct sm_session *s = c->s;
	struct sm_schedule best = c->cell->found;

	sm_run_schedule(s, &best);
	if (!sm_verdict_fails(s->res.verdict)) {
		/* the engine's snapshots and a re-run disagree: a bug in selfmon */
		c->cell->min = best;
		c->cell->res = s->res;
		c->cell->verdict = SM_V_ERROR;
		sm_result_set(&c->cell->res, SM_V_ERROR, "selfmon error: this "
		              "schedule gave %s but %s when re-run from the start",
		              sm_verdict_name(c->cell->found_verdict),
		              sm_verdict_name(s->res.verdict));
		return;
	}
	for (bool shrunk = true; shrunk && sm_schedule_len(&best) > 0;) {
		shrunk = false;
		for (unsigned i = 0; i < sm_schedule_len(&best); i++) {
			struct sm_schedule t = best;
			drop_choice(&t, i);
			sm_run_schedule(s, &t);
			if (sm_verdict_fails(s->res.verdict)) {
				best = t;
				shrunk = true;
				break;
			}
		}
	}
	sm_run_schedule(s, &best);
	c->cell->min = best;
	c->cell->res = s->res;
	c->cell->verdict = s->res.verdict;
}

/* Every schedule of at most c->bound actions, depth first, into a cell
 * cleared here: its first failure, or PASS with the counts. */
static void exhaustive(struct ctx *c)
{
	struct sm_session *s = c->s;
	struct sm_cell *cell = c->cell;
	struct sm_schedule none = { 0 };

	memset(cell, 0, sizeof(*cell));
	memset(c->win, 0, sizeof(c->win));
	if (c->ops->save) {
		s->run.sched = NULL;
		c->prune = !c->o->no_prune && c->ops->hash ? sm_prune_new() : NULL;
		cell->pruning = c->prune != NULL; /* NULL: every schedule is run */
		c->ops->begin(s);
		dfs_snap(c, &none, 0);
		cell->prune_full = c->prune && sm_prune_full(c->prune);
		sm_prune_free(c->prune);
		c->prune = NULL;
	} else {
		dfs_rerun(c, &none);
	}
}

/* The exploration at the bound found a failure of n = found.n actions,
 * but depth first it may meet a longer failing schedule before a shorter
 * one, so what it found depends on the bound.  The cell's failure is the
 * first one found at the least bound that has one (README, "The least
 * bound"): explore bounds 1, 2, ... in turn, each from scratch, until one
 * fails; at most n, which must, since the schedule found is in it.  Then
 * every bound from the least one up reports the same failure, counts and
 * counterexample, and every bound below it PASSes.  The cell's time limit
 * covers them all: out of time, the failure found at the bound stands,
 * its least bound unknown. */
static void least_bound(struct ctx *c)
{
	struct sm_cell *cell = c->cell, lower;
	unsigned n = sm_schedule_len(&cell->found);

	cell->least_bound = n;
	if (n == 0)
		return; /* the call fails with no action: every bound's first run */
	c->cell = &lower;
	for (unsigned k = 1; k < n || (k == n && n < c->o->bound); k++) {
		c->bound = k;
		exhaustive(c);
		if (lower.timed_out || sm_verdict_selfmon(lower.verdict)) {
			cell->least_bound = SM_LEAST_UNKNOWN;
			break;
		}
		if (sm_verdict_fails(lower.verdict)) {
			lower.least_bound = k;
			*cell = lower;
			break;
		}
		if (k == n) { /* the schedule found fails, so this cannot pass */
			cell->verdict = SM_V_ERROR;
			sm_result_set(&cell->res, SM_V_ERROR, "selfmon error: a "
			              "schedule of %u actions fails, but no schedule "
			              "of at most %u did when explored again", n, n);
		}
	}
	c->cell = cell;
	c->bound = c->o->bound;
}

void sm_explore(struct sm_session *s, const struct sm_explore_opts *o,
                struct sm_cell *cell)
{
	struct ctx c = { .s = s, .ops = sm_engine_ops(s->engine), .o = o,
	                 .bound = o->bound, .cell = cell };
	struct sm_schedule none = { 0 };

	memset(cell, 0, sizeof(*cell));
	clock_gettime(CLOCK_MONOTONIC, &c.t0);
	for (int k = 0; k < SM_NACTIONS; k++)
		if (s->scn->explore & (1u << k))
			c.actions[c.nactions++] = (enum sm_action_kind)k;
	s->terse = true; /* only a failure's detail is kept (record()) */
	if (o->random_runs) {
		random_runs(&c);
		cell->least_bound = SM_LEAST_UNKNOWN;
	} else {
		exhaustive(&c);
		if (sm_verdict_fails(cell->verdict) && !cell->timed_out)
			least_bound(&c);
	}
	for (unsigned d = 0; d <= SM_MAX_BOUND && c.ops->free_snap; d++) {
		c.ops->free_snap(c.base[d]);
		c.ops->free_snap(c.cursor[d]);
	}
	s->terse = false;
	cell->stale_left_out = c.stale_left_out;
	if ((cell->interrupted = stopped(&c))) /* no result: not minimised */
		return;
	if (sm_verdict_selfmon(cell->verdict)) {
		cell->min = cell->found;
	} else if (sm_verdict_fails(cell->verdict)) {
		cell->found_verdict = cell->verdict;
		minimise(&c);
	} else {
		sm_run_schedule(s, &none);
		cell->res = s->res;
		cell->verdict = SM_V_PASS;
		cell->least_bound = SM_LEAST_UNKNOWN;
		if (cell->timed_out) {
			cell->verdict = SM_V_INCOMPLETE;
			sm_result_set(&cell->res, SM_V_INCOMPLETE, "no failure found in "
			              "%" PRIu64 " schedules, but the time limit of %u s "
			              "ended the exploration (--time-limit)", cell->runs,
			              o->time_limit);
		} else if (cell->blocked) {
			cell->verdict = SM_V_INCOMPLETE;
			sm_result_set(&cell->res, SM_V_INCOMPLETE, "no failure found, "
			              "but %" PRIu64 " of %" PRIu64 " schedules were "
			              "still retrying at the %" PRIu64 "-step budget "
			              "while the kernel kept writing (BLOCKED), so they "
			              "were not judged", cell->blocked, cell->runs,
			              sm_budget(s->engine));
		}
	}
}
