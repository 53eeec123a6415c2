/*
 * check.h — what the files of `selfmon check` (and `explore`) share: the
 * options, the plan of the sweep (its scenarios and cells, "jobs") and
 * the steps run_check (cmd_check.c) takes through them.
 *
 * Owns: struct opts, struct job and struct plan, and which file does
 * what to them: check_options.c parses the command line into opts,
 * check_plan.c loads the readers and scenarios, plans the cells and runs
 * them on the workers, check_traces.c writes the counterexample trace
 * files, check_kernel_diff.c runs --kernel-diff (and prints its diff),
 * and cmd_check.c turns the finished cells into reports (cell_report.h)
 * for render.c, which prints every other output.
 */
#ifndef SELFMON_CHECK_H
#define SELFMON_CHECK_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "action_filter.h"
#include "cell_report.h"
#include "explore.h"
#include "shard.h"
#include "user_reader.h"

#define MAX_SCENARIOS 64
#define MAX_JOBS 256      /* -j and its default, the CPU count, at most */

struct job {
	const struct sm_reader *reader;
	const struct sm_scenario *scn;
	const char *scn_name;
	unsigned dropped;           /* scripted lines skipped */
	unsigned dropped_kinds;     /* of these actions */
	enum sm_verdict expected;
	const struct sm_expect *row; /* the corpus row it is held to, or NULL */
	struct sm_expect_at at;     /* where its expectation was looked up */
	/* a user's failing cell: the corpus faults it looks like, the most
	 * specific first (check_lookalikes(), lookalike.h) */
	const struct sm_reader *looks_like[SM_LOOKALIKE_MAX];
	unsigned nlooks_like;
	bool unjudged;              /* no expectation applies (see add_job) */
	unsigned index;             /* in the whole sweep's plan, all shards */
	struct sm_cell cell;
	char *min_line, *found_line; /* of a failing cell (lines_for_jobs) */
	char error[sizeof(((struct sm_result *)0)->detail)];
	char trace[PATH_MAX];
	double seconds;             /* exploring the cell took */
	bool finished;              /* explored to its end (not interrupted) */
};

struct opts {
	bool json, explore_stats, arch_all, no_traces, tap;
	bool quiet;              /* -q: no progress lines */
	const char *junit;       /* --junit FILE */
	bool kernel_given;       /* --kernel: every scenario's kernel */
	unsigned kernel;         /* ... its variants (1 << SM_KV_*) */
	bool diffing;            /* --kernel-diff given */
	bool diff_range;         /* ... as A..B: A replaces --kernel */
	unsigned diff;           /* --kernel-diff V: the bits added; A..B: B */
	unsigned diff_from;      /* --kernel-diff A..B: A */
	int arch; /* -1: all built */
	enum sm_engine_kind engine;
	struct sm_explore_opts x;
	unsigned jobs;
	unsigned shard, nshards; /* --shard I/N: cells with index % N == I */
	char shard_note[256];    /* --shard auto: where I/N came from */
	const char *traces;
	const char *readers[64];
	unsigned nreaders;
	const char *users[16];   /* PATH:SYMBOL */
	unsigned nusers;
	int abi;                 /* --abi, -1: not given */
	const char *name;        /* --name: the user's reader's, or NULL */
	const char *scenarios[MAX_SCENARIOS];
	unsigned nscenarios;
	struct sm_action_filter af;
};

struct plan {
	struct opts o;
	struct sm_scenario **scn;  /* nscn of each, allocated together */
	char **scn_name;
	unsigned *dropped;         /* scripted lines --drop-scripted took */
	unsigned *dropped_kinds;   /* ... of these actions */
	unsigned *left_out;        /* of the scenario's own actions (filter) */
	bool *foreign;             /* actions added, or scripted lines dropped */
	unsigned nscn;
	struct sm_user_reader *users;
	struct job *jobs;
	unsigned njobs, ncells;
	struct sm_sweep_id sweep;  /* options and every cell, all shards */
	atomic_uint next, done;
	atomic_uint exited;        /* workers that returned */
	atomic_ulong runs;         /* schedules run so far (o.x.progress) */
	atomic_bool stop;          /* SIGINT or SIGTERM came (o.x.stop) */
	int signal;                /* which, when stop */
};

/* check_options.c: the command line into o (defaults first): 0, 1 after
 * --help, 2 after an error line. */
int check_parse_opts(int argc, char **argv, struct opts *o);

/* check_plan.c.  Each returns 0, or 2 after the error line. */
int check_load_users(struct plan *p);
int check_load_scenarios(struct plan *p);
int check_plan_jobs(struct plan *p);
/* Explore every job on o.jobs workers, with a progress line that a
 * terminal sees updated in place and any other stderr every 10 s (none
 * with -q).  SIGINT or SIGTERM stops it: the jobs then explored to their
 * end are `finished`, p->stop is set and p->signal says which came. */
void check_run_all(struct plan *p);
/* Each user's failing cell (Unicorn engine): the corpus fault with its
 * signature, into its job's looks_like (sm_lookalike()). */
void check_lookalikes(struct plan *p);
/* Each failing cell's schedule lines, made before anything is printed
 * or written: 0, or -1 out of memory. */
int check_lines(struct plan *p);
/* Everything the plan holds, and the plan. */
void check_free_plan(struct plan *p);

/* check_traces.c: every failing cell's trace file (unless --no-traces),
 * its path into the job: 0, or -1 when one could not be written (said
 * on stderr; the rest are not tried). */
int check_write_traces(struct plan *p);

/* check_kernel_diff.c: the sweep was run on the old kernel: run it again
 * with the variant and print the cells whose verdict changed.  Exit
 * status. */
int check_kernel_diff(struct plan *p);

#endif
