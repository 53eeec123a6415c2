/*
 * cmd_check.c — `selfmon check` (and `selfmon explore`): every reader on
 * every scenario, every schedule up to the bound, a verdict table.
 *
 * Owns: the options, the cells (arch x reader x scenario) and the workers
 * that explore them (-j), the expected verdicts of built-in readers, the
 * table / JSON output, counterexample trace files and the exit status
 * (DESIGN.md §8), and --kernel-diff: the sweep on two kernels and the
 * cells whose verdict changed.  Exploration itself is explore.c; the JUnit and TAP
 * reports are report.c's, from the cells this file hands it.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "action_filter.h"
#include "bundled.h"
#include "commands.h"
#include "details.h"
#include "explore.h"
#include "input.h"
#include "json.h"
#include "options.h"
#include "outfile.h"
#include "report.h"
#include "result_json.h"
#include "shard.h"
#include "table.h"
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
	bool unjudged;              /* no expectation applies (see add_job) */
	unsigned index;             /* in the whole sweep's plan, all shards */
	struct sm_cell cell;
	char *min_line, *found_line; /* of a failing cell (lines_for_jobs) */
	char error[sizeof(((struct sm_result *)0)->detail)];
	char trace[PATH_MAX];
	double seconds;             /* exploring the cell took */
};

struct opts {
	bool json, explore_stats, arch_all, no_traces, tap;
	const char *junit;       /* --junit FILE */
	bool kernel_given;       /* --kernel: every scenario's kernel */
	unsigned kernel;         /* ... its variants (1 << SM_KV_*) */
	unsigned diff;           /* --kernel-diff NAME: variant bit(s), 0 none */
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
	atomic_ulong runs;
};

static const char usage[] =
	"usage: selfmon check [READER...] [options]\n"
	"       selfmon explore [READER...] [options]   (same, with statistics)\n\n"
	"Runs each reader in each scenario under every schedule of at most K\n"
	"injected kernel actions and judges every result against the model's\n"
	"ground truth.  With no READER, every built-in reader; with no\n"
	"--scenario, every bundled scenario of the arch.\n\n"
	"  READER          a built-in name (see 'selfmon list') or PATH:SYMBOL,\n"
	"                  a function in an ELF .o or .so (then --abi is needed)\n"
	"  --abi A         raw, times, scaled or values: how PATH:SYMBOL is called\n"
	"  --arch A        x86_64, arm64, riscv64 or all (default: every arch with\n"
	"                  reader code; a PATH:SYMBOL reader's arch is its ELF's)\n"
	"  --scenario S    a bundled name (x86_reset) or a .scn path; repeatable\n"
	"  --bound K       at most K injected actions per schedule (default 2)\n"
	"  --engine E      unicorn (default) or native\n"
	"  --random N      N random schedules instead of all (with --seed S)\n"
	"  --time-limit S  stop exploring a cell after S seconds; it is then\n"
	"                  INCOMPLETE (default 600, 0 for none)\n"
	"  --no-prune      run every schedule: by default (unicorn) a subtree of\n"
	"                  schedules that starts from a state already explored\n"
	"                  (registers, memory, model, the window's truth values)\n"
	"                  is counted from that one, not run; verdicts and counts\n"
	"                  are the same either way\n"
	"  -j N            worker threads (default: number of CPUs)\n"
	"  --shard I/N     only cells I, I+N, I+2N, ... (0 <= I < N): the shards\n"
	"                  of a sweep together are the whole sweep ('selfmon\n"
	"                  merge' joins their --json outputs)\n"
	"  --shard auto    I and N from a Slurm job array (--array=A-B):\n"
	"                  SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, and\n"
	"                  SLURM_ARRAY_TASK_COUNT\n"
	"  --shard auto/N  I from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)\n"
	"                  of N completions (or a Slurm array of N tasks)\n"
	SM_ACTION_FILTER_USAGE
	"  --traces DIR    where counterexample traces go (default traces/cex)\n"
	"  --no-traces     write none\n"
	"  --json          one JSON document with every verdict\n"
	"  --tap           TAP version 13 on standard output instead of the table\n"
	"  --junit FILE    also write a JUnit XML report (a test case per cell)\n"
	"  --kernel K      run the model as kernel K: base (the kernel as it\n"
	"                  is) or variants V[,V...] from 'selfmon list'; the\n"
	"                  scenarios of arches a variant does not apply to are\n"
	"                  skipped (default: each scenario's own 'kernel' line)\n"
	"  --kernel-diff V run the sweep on the kernel (--kernel, or each\n"
	"                  scenario's) and again with variant V added; print\n"
	"                  only the cells whose verdict changed.  Exit status 0\n"
	"                  when no cell that passed fails under V, 1 otherwise\n\n"
	"Verdicts: PASS (no schedule within the bound breaks the reader),\n"
	"WRONG_VALUE, FAULT, LIVELOCK, and INCOMPLETE: no failure found, but a\n"
	"schedule was still retrying at the step budget while the kernel kept\n"
	"writing, so not every schedule was judged.  ERROR is selfmon's own;\n"
	"UNSUPPORTED, an instruction a real CPU runs that the emulator cannot.\n\n"
	"Exit status: 0 every verdict as expected (and every cell explored\n"
	"exhaustively, or --random asked for), 1 a reader failed or a built-in\n"
	"reader did not get its expected verdict, 2 bad input or selfmon's own\n"
	"error, 3 no failure, but some cell INCOMPLETE, 4 no failure, but some\n"
	"cell UNSUPPORTED.\n";

static int number_arg(const char *opt, const char *v, uint64_t max,
                      uint64_t *out)
{
	char *end;

	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (!*v || *end || errno || x > max || *v == '-')
		return usage_error("check: bad value '%s' for %s (0..%" PRIu64 ")",
		                   v, opt, max);
	*out = x;
	return 0;
}

enum {
	O_JSON = SM_OPT_LONG, O_NO_TRACES, O_ARCH, O_ENGINE, O_SCENARIO, O_SHARD,
	O_ABI, O_TRACES, O_BOUND, O_RANDOM, O_TIME_LIMIT, O_SEED, O_TAP, O_JUNIT,
	O_KERNEL, O_KERNEL_DIFF, O_NO_PRUNE,
};

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ NULL, required_argument, 'j', NULL },
	{ "json", no_argument, O_JSON, NULL },
	{ "no-traces", no_argument, O_NO_TRACES, NULL },
	{ "no-prune", no_argument, O_NO_PRUNE, NULL },
	{ "arch", required_argument, O_ARCH, NULL },
	{ "engine", required_argument, O_ENGINE, "unicorn or native" },
	{ "scenario", required_argument, O_SCENARIO, NULL },
	{ "shard", required_argument, O_SHARD, "I/N, auto or auto/N" },
	{ "abi", required_argument, O_ABI, "raw, times, scaled or values" },
	{ "traces", required_argument, O_TRACES, NULL },
	{ "bound", required_argument, O_BOUND, NULL },
	{ "random", required_argument, O_RANDOM, NULL },
	{ "time-limit", required_argument, O_TIME_LIMIT, NULL },
	{ "seed", required_argument, O_SEED, NULL },
	{ "tap", no_argument, O_TAP, NULL },
	{ "junit", required_argument, O_JUNIT, "a file" },
	{ "kernel", required_argument, O_KERNEL, "base or V[,V...]" },
	{ "kernel-diff", required_argument, O_KERNEL_DIFF, "a variant" },
	SM_ACTION_FILTER_OPTIONS,
	{ 0 },
};

/* READER: a built-in name or PATH:SYMBOL. */
static int take_reader(struct opts *o, const char *a)
{
	if (sm_reader_find(a)) {
		if (o->nreaders == 64)
			return usage_error("check: too many readers");
		o->readers[o->nreaders++] = a;
	} else if (strchr(a, ':')) {
		if (o->nusers == 16)
			return usage_error("check: too many readers");
		o->users[o->nusers++] = a;
	} else {
		return usage_error("check: unknown reader '%s' (a built-in name "
		                   "from 'selfmon list', or PATH:SYMBOL)", a);
	}
	return 0;
}

/* An option in the table that no case takes: selfmon's own error (a new
 * option must be dispatched, never parsed as another). */
static int not_dispatched(int c)
{
	return usage_error("check: internal error: option %d is not handled", c);
}

/* --arch, --engine, --abi, --shard: 0, or 2 after the error line. */
static int take_choice(struct opts *o, int c, const char *val)
{
	unsigned si, sn;
	char err[256];

	switch (c) {
	case O_ARCH:
		o->arch = strcmp(val, "all") ? sm_arch_from_name(val) : -1;
		if (o->arch < 0 && strcmp(val, "all"))
			return usage_error("check: unknown arch '%s' (x86_64, "
			                   "arm64, riscv64 or all)", val);
		return 0;
	case O_ENGINE:
		if (strcmp(val, "unicorn") && strcmp(val, "native"))
			return usage_error("check: --engine must be unicorn or native");
		o->engine = strcmp(val, "native") ? SM_ENGINE_UNICORN
		                                  : SM_ENGINE_NATIVE;
		return 0;
	case O_ABI:
		if ((o->abi = sm_abi_from_name(val)) < 0)
			return usage_error("check: --abi must be raw, times, scaled "
			                   "or values");
		return 0;
	case O_SHARD:
		if (sm_shard_parse(val, &si, &sn, o->shard_note,
		                   sizeof(o->shard_note), err, sizeof(err)) < 0)
			return usage_error("check: %s", err);
		o->shard = si;
		o->nshards = sn;
		return 0;
	}
	return not_dispatched(c);
}

/* The numeric options: 0, or 2 after the error line. */
static int take_number(struct opts *o, int c, const char *val, bool *seeded)
{
	uint64_t v;

	switch (c) {
	case 'j':
		if (number_arg("-j", val, MAX_JOBS, &v))
			return 2;
		o->jobs = v ? (unsigned)v : 1;
		return 0;
	case O_BOUND:
		if (number_arg("--bound", val, SM_MAX_BOUND, &v))
			return 2;
		o->x.bound = (unsigned)v;
		return 0;
	case O_RANDOM:
		if (number_arg("--random", val, 100000000, &v))
			return 2;
		o->x.random_runs = (unsigned)v;
		return 0;
	case O_TIME_LIMIT:
		if (number_arg("--time-limit", val, 86400 * 365, &v))
			return 2;
		o->x.time_limit = (unsigned)v;
		return 0;
	case O_SEED:
		*seeded = true;
		return number_arg("--seed", val, UINT64_MAX, &o->x.seed) ? 2 : 0;
	}
	return not_dispatched(c);
}

/* --kernel LIST and --kernel-diff V: 0, or 2 after the error line. */
static int take_kernel(struct opts *o, int c, const char *val)
{
	char why[200];
	unsigned bits;

	if (sm_kernel_parse(val, -1, &bits, why, sizeof(why)) < 0)
		return usage_error("check: %s", why);
	if (c == O_KERNEL) {
		o->kernel_given = true;
		o->kernel = bits;
	} else if (!bits) {
		return usage_error("check: --kernel-diff needs a variant, not "
		                   "base (see 'selfmon list')");
	} else {
		o->diff = bits;
	}
	return 0;
}

/* One option or operand: 0, 1 after --help, 2 after an error line. */
static int take(struct opts *o, int c, const char *val, bool *seeded)
{
	char err[160];

	switch (c) {
	case 'h':
		fputs(usage, stdout);
		return 1;
	case SM_OPT_BAD:
		return 2;
	case SM_OPT_OPERAND:
		return take_reader(o, val);
	case O_JSON:
		o->json = true;
		return 0;
	case O_NO_TRACES:
		o->no_traces = true;
		return 0;
	case O_NO_PRUNE:
		o->x.no_prune = true;
		return 0;
	case O_SCENARIO:
		if (o->nscenarios == MAX_SCENARIOS)
			return usage_error("check: too many scenarios");
		o->scenarios[o->nscenarios++] = val;
		return 0;
	case O_TRACES:
		o->traces = val;
		return 0;
	case O_TAP:
		o->tap = true;
		return 0;
	case O_JUNIT:
		o->junit = val;
		return 0;
	case O_ARCH: case O_ENGINE: case O_ABI: case O_SHARD:
		return take_choice(o, c, val);
	case O_KERNEL: case O_KERNEL_DIFF:
		return take_kernel(o, c, val);
	case SM_AF_ACTIONS: case SM_AF_WITHOUT: case SM_AF_DROP:
		if (sm_action_filter_opt(&o->af, c, val, err, sizeof(err)) < 0)
			return usage_error("check: %s", err);
		return 0;
	case 'j': case O_BOUND: case O_RANDOM: case O_TIME_LIMIT: case O_SEED:
		return take_number(o, c, val, seeded);
	}
	return not_dispatched(c);
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	struct sm_opt op;
	bool seeded = false;
	int c, rc;

	o->x.bound = SM_DEFAULT_BOUND;
	o->x.time_limit = 600;
	o->arch = -1;
	o->abi = -1;
	o->nshards = 1;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	o->jobs = cpus < 1 ? 1 : cpus > MAX_JOBS ? MAX_JOBS : (unsigned)cpus;
	o->traces = "traces/cex";
	sm_opt_init(&op, "check", argc, argv, options);
	while ((c = sm_opt_next(&op)) != -1)
		if ((rc = take(o, c, op.arg, &seeded)) != 0)
			return rc;
	if (o->nusers && o->abi < 0)
		return usage_error("check: %s needs --abi raw|times|scaled|values",
		                   o->users[0]);
	if (!o->nusers && o->abi >= 0)
		return usage_error("check: --abi applies to PATH:SYMBOL readers only");
	if (o->tap && o->json)
		return usage_error("check: --tap and --json both want standard "
		                   "output: give one");
	if (seeded && !o->x.random_runs)
		return usage_error("check: --seed applies to --random N only");
	if (o->diff && (o->tap || o->junit))
		return usage_error("check: --kernel-diff prints its own table or "
		                   "--json, not --tap or --junit");
	if (o->diff)
		o->no_traces = true; /* the diff prints both sides' lines */
	unsigned arches = sm_kernel_arches(o->kernel | o->diff);
	if (o->arch >= 0 && !(arches & (1u << o->arch))) {
		char why[200];
		sm_kernel_check_arch(o->kernel | o->diff, (enum sm_arch)o->arch, why,
		                     sizeof(why));
		return usage_error("check: %s", why);
	}
	char why[256];
	if (!o->no_traces && sm_text_check(o->traces, why, sizeof(why)) < 0)
		return usage_error("check: bad --traces %s: %s (trace paths go "
		                   "into the traces and the reports)", o->traces,
		                   why);
	if (!o->no_traces && sm_dir_writable(o->traces, why, sizeof(why)) < 0)
		return usage_error("check: cannot write traces to %s: %s (--traces "
		                   "DIR or --no-traces)", o->traces, why);
	if (o->shard_note[0]) /* where --shard auto found I/N: stderr, once */
		fprintf(stderr, "selfmon: %s\n", o->shard_note);
	return 0;
}

/* Load each PATH:SYMBOL; their arch must agree with --arch. */
static int load_users(struct plan *p)
{
	char err[600];

	if (!p->o.nusers)
		return 0;
	if (p->o.engine == SM_ENGINE_NATIVE)
		return usage_error("check: PATH:SYMBOL readers run in the unicorn "
		                   "engine only");
	if (!(p->users = calloc(p->o.nusers, sizeof(*p->users))))
		return usage_error("check: out of memory");
	for (unsigned i = 0; i < p->o.nusers; i++) {
		struct sm_user_reader *u = &p->users[i];
		if (sm_user_reader_load(p->o.users[i], (enum sm_abi)p->o.abi, u, err,
		                        sizeof(err)) < 0)
			return usage_error("%s", err);
		if (p->o.arch >= 0 && p->o.arch != (int)u->img.arch)
			return usage_error("check: %s is %s code, not %s", p->o.users[i],
			                   sm_arch_name(u->img.arch),
			                   sm_arch_name((enum sm_arch)p->o.arch));
	}
	return 0;
}

/* The scenarios named by --scenario, or every bundled one. */
static int scenario_names(const struct plan *p, char ***out)
{
	int n = (int)p->o.nscenarios;
	char **names;

	if (!n)
		return sm_bundled_names(out);
	if (!(*out = names = calloc((size_t)n, sizeof(*names))))
		return -1;
	for (int i = 0; i < n; i++)
		if (!(names[i] = strdup(p->o.scenarios[i]))) {
			sm_names_free(names, i);
			return -1;
		}
	return n;
}

/* Allocate the per-scenario arrays for n: 0, or -1 out of memory. */
static int alloc_scenarios(struct plan *p, int n)
{
	p->scn = calloc((size_t)n + 1, sizeof(*p->scn));
	p->scn_name = calloc((size_t)n + 1, sizeof(*p->scn_name));
	p->dropped = calloc((size_t)n + 1, sizeof(*p->dropped));
	p->dropped_kinds = calloc((size_t)n + 1, sizeof(*p->dropped_kinds));
	p->left_out = calloc((size_t)n + 1, sizeof(*p->left_out));
	p->foreign = calloc((size_t)n + 1, sizeof(*p->foreign));
	return p->scn && p->scn_name && p->dropped && p->dropped_kinds &&
	       p->left_out && p->foreign ? 0 : -1;
}

/* --kernel on a loaded scenario: a scenario named by --scenario must be
 * of an arch the variants apply to (0, or 2 after the error line). */
static int apply_kernel(const struct plan *p, struct sm_scenario *s)
{
	char why[200];
	unsigned bits = p->o.kernel_given ? p->o.kernel : s->cfg.kernel;

	if (p->o.nscenarios &&
	    sm_kernel_check_arch(bits | p->o.diff, s->cfg.arch, why,
	                         sizeof(why)) < 0)
		return usage_error("check: %s: %s", s->name, why);
	s->cfg.kernel = bits;
	return 0;
}

/* --actions naming an action the scenario's arch does not have is
 * refused, as the scenario's own explore= is: it would be reported as
 * injected and explore nothing. */
static int check_actions(const struct plan *p, const struct sm_scenario *s)
{
	for (int k = 0; k < SM_NACTIONS; k++)
		if ((p->o.af.only & (1u << k)) &&
		    (p->o.arch < 0 || p->o.arch == (int)s->cfg.arch) &&
		    !sm_action_applies((enum sm_action_kind)k, s->cfg.arch))
			return usage_error("check: --actions %s does not apply to %s "
			                   "(scenario %s; choose another arch with "
			                   "--arch)", sm_action_name((enum sm_action_kind)k),
			                   sm_arch_name(s->cfg.arch), s->name);
	return 0;
}

static int load_scenarios(struct plan *p)
{
	char err[1024], **names;
	int n = scenario_names(p, &names), rc = 0;

	if (n < 0 || alloc_scenarios(p, n) < 0) {
		sm_names_free(names, n);
		return usage_error("check: out of memory");
	}
	for (int i = 0; i < n && !rc; i++) {
		struct sm_scenario *s = malloc(sizeof(*s));
		if (!s)
			rc = usage_error("check: out of memory");
		else if (sm_scenario_open(names[i], s, err, sizeof(err)) < 0)
			rc = usage_error("%s", err);
		if (rc) {
			free(s);
			break;
		}
		if (!rc && ((rc = apply_kernel(p, s)) != 0 ||
		            (rc = check_actions(p, s)) != 0)) {
			free(s);
			break;
		}
		unsigned own = s->explore;
		p->dropped[p->nscn] = sm_action_filter_apply(&p->o.af, s,
		                                             &p->dropped_kinds[p->nscn]);
		p->left_out[p->nscn] = own & ~s->explore;
		p->foreign[p->nscn] = (s->explore & ~own) || p->dropped[p->nscn];
		p->scn[p->nscn] = s;
		p->scn_name[p->nscn++] = names[i];
		names[i] = NULL; /* the plan's now */
	}
	sm_names_free(names, n);
	return rc;
}

static bool arch_selected(const struct plan *p, enum sm_arch a)
{
	bool built = sm_blob_for(a) != NULL;

	for (unsigned u = 0; u < p->o.nusers; u++)
		built |= p->users[u].img.arch == a;
	return built && (p->o.arch < 0 || p->o.arch == (int)a);
}

/* Say once per arch which scenarios are skipped for want of reader code. */
static void note_skipped(const struct plan *p)
{
	for (int a = 0; a < SM_NARCH && !p->o.json; a++) {
		if (sm_blob_for((enum sm_arch)a) ||
		    (p->o.arch >= 0 && p->o.arch != a) ||
		    !(sm_kernel_arches(p->o.kernel | p->o.diff) & (1u << a)))
			continue;
		unsigned n = 0;
		for (unsigned i = 0; i < p->nscn; i++) {
			if (p->scn[i]->cfg.arch != (enum sm_arch)a)
				continue;
			if (n++ == 0)
				fprintf(stderr, "selfmon: skipping %s (", sm_arch_name(a));
			fprintf(stderr, "%s%s", n > 1 ? ", " : "", p->scn_name[i]);
		}
		if (n)
			fprintf(stderr, "): no %s reader code is built into this "
			        "selfmon\n", sm_arch_name(a));
	}
}

/* What defines the sweep, before its cells: the options that change a
 * cell's result (not -j, --traces or the output format). */
static void sweep_options(struct plan *p)
{
	const struct opts *o = &p->o;

	sm_sweep_id_init(&p->sweep);
	sm_sweep_id_str(&p->sweep, "selfmon sweep 1");
	sm_sweep_id_str(&p->sweep, sm_engine_name(o->engine));
	sm_sweep_id_u64(&p->sweep, o->x.bound);
	sm_sweep_id_u64(&p->sweep, o->x.random_runs);
	sm_sweep_id_u64(&p->sweep, o->x.random_runs ? o->x.seed : 0);
	sm_sweep_id_u64(&p->sweep, o->x.time_limit);
	sm_sweep_id_u64(&p->sweep, o->af.only);
	sm_sweep_id_u64(&p->sweep, o->af.without);
	sm_sweep_id_u64(&p->sweep, o->af.drop_scripted);
}

/* Cell p->ncells of the sweep: into the sweep's identity whichever shard
 * it is in, and a job if it is in this one. */
static void add_job(struct plan *p, const struct sm_reader *r,
                    unsigned si)
{
	sm_sweep_id_str(&p->sweep, sm_arch_name(p->scn[si]->cfg.arch));
	sm_sweep_id_str(&p->sweep, r->name);
	sm_sweep_id_str(&p->sweep, sm_abi_name(r->abi));
	sm_sweep_id_str(&p->sweep, p->scn_name[si]);
	if (p->ncells++ % p->o.nshards != p->o.shard)
		return;
	struct job *j = &p->jobs[p->njobs++];

	j->index = p->ncells - 1;
	j->reader = r;
	j->scn = p->scn[si];
	j->dropped = p->dropped[si];
	j->dropped_kinds = p->dropped_kinds[si];
	j->scn_name = p->scn_name[si];
	/* The expectation at this bound, kernel and action set: a corpus
	 * row (sm_reader_expect()), or none; a user's reader is held to PASS,
	 * or in a kernel hazard to the scenario's `expect`, which is for the
	 * scenario as written, from the default bound up (a hazard below
	 * it may need more actions than the bound allows). */
	const struct sm_scenario *scn = j->scn;
	struct sm_expect_at at = {
		.bound = p->o.x.bound, .kernel = scn->cfg.kernel,
		.allowed = scn->explore, .left_out = p->left_out[si],
		.foreign = p->foreign[si],
	};
	j->row = NULL;
	j->expected = SM_V_PASS;
	j->unjudged = false;
	if (r->image && scn->expect >= 0) {
		j->expected = (enum sm_verdict)scn->expect;
		j->unjudged = at.kernel || at.left_out || at.foreign ||
		              at.bound < SM_DEFAULT_BOUND;
	} else if (!r->image) {
		j->row = sm_reader_expect(r, p->scn_name[si], p->o.engine, &at);
		j->unjudged = !j->row;
		if (j->row)
			j->expected = sm_expect_verdict(j->row, at.bound);
	}
}

static bool as_expected(const struct job *j)
{
	return j->unjudged || j->cell.verdict == j->expected;
}

static const char *expected_name(const struct job *j)
{
	return j->unjudged ? "-" : sm_verdict_name(j->expected);
}

static int plan_jobs(struct plan *p)
{
	unsigned max = (sm_nreaders + p->o.nusers) * p->nscn;

	if (!p->o.nusers || p->o.nreaders)
		note_skipped(p);
	if (!(p->jobs = calloc(max ? max : 1, sizeof(*p->jobs))))
		return usage_error("check: out of memory");
	sweep_options(p);
	for (unsigned si = 0; si < p->nscn; si++) {
		const struct sm_scenario *scn = p->scn[si];
		if (!arch_selected(p, scn->cfg.arch) ||
		    !(sm_kernel_arches(scn->cfg.kernel | p->o.diff) &
		      (1u << scn->cfg.arch)))
			continue;
		if (p->o.engine == SM_ENGINE_NATIVE &&
		    (scn->cfg.writer == SM_WRITER_REMOTE ||
		     scn->cfg.arch != SM_X86_64)) {
			if (!p->o.json)
				fprintf(stderr, "selfmon: skipping %s: the native engine "
				        "runs local-writer x86_64 scenarios only\n",
				        p->scn_name[si]);
			continue;
		}
		for (unsigned u = 0; u < p->o.nusers; u++)
			if (p->users[u].img.arch == scn->cfg.arch)
				add_job(p, &p->users[u].r, si);
		for (unsigned ri = 0; ri < sm_nreaders; ri++) {
			const struct sm_reader *r = &sm_readers[ri];
			bool named = p->o.nreaders == 0 && p->o.nusers == 0;
			for (unsigned k = 0; k < p->o.nreaders && !named; k++)
				named = !strcmp(p->o.readers[k], r->name);
			if (!named || !sm_reader_on(r, scn->cfg.arch) ||
			    (p->o.engine == SM_ENGINE_NATIVE && !r->native))
				continue;
			add_job(p, r, si);
		}
	}
	sm_sweep_id_u64(&p->sweep, p->ncells);
	return 0;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The cell's primary fields, from which table.c derives its outcome. */
static struct sm_cell_facts facts(const struct job *j)
{
	return (struct sm_cell_facts){
		.error = j->error[0] != '\0', .unjudged = j->unjudged,
		.verdict = (int)j->cell.verdict, .expected = (int)j->expected,
	};
}

static enum sm_outcome outcome(const struct job *j)
{
	struct sm_cell_facts f = facts(j);
	return sm_cell_outcome(&f);
}

static bool incomplete(const struct job *j)
{
	struct sm_cell_facts f = facts(j);
	return sm_cell_incomplete(&f);
}

static void run_job(struct plan *p, struct job *j)
{
	double t0 = now();
	struct sm_session *s = sm_session_new();

	if (!s || sm_session_init(s, j->scn, j->reader, p->o.engine, j->error,
	                          sizeof(j->error)) < 0) {
		sm_session_free(s);
		if (!j->error[0])
			snprintf(j->error, sizeof(j->error), "out of memory");
		return;
	}
	sm_explore(s, &p->o.x, &j->cell);
	if (j->cell.verdict == SM_V_ERROR) /* selfmon's, not the reader's */
		snprintf(j->error, sizeof(j->error), "%s", j->cell.res.detail);
	sm_session_free(s);
	j->seconds = now() - t0;
}

static void progress(struct plan *p, time_t t0)
{
	unsigned d = atomic_load(&p->done);
	double el = difftime(time(NULL), t0);
	unsigned long runs = atomic_load(&p->runs);

	fprintf(stderr, "\r[%u/%u cells] %lu schedules, %.0f/s, ETA %.0f s   ",
	        d, p->njobs, runs, el > 0 ? runs / el : 0.0,
	        d ? el * (p->njobs - d) / d : 0.0);
	fflush(stderr);
}

static void *worker(void *arg)
{
	struct plan *p = arg;

	for (unsigned i; (i = atomic_fetch_add(&p->next, 1)) < p->njobs;) {
		run_job(p, &p->jobs[i]);
		atomic_fetch_add(&p->runs, p->jobs[i].cell.runs);
		atomic_fetch_add(&p->done, 1);
	}
	return NULL;
}

static void run_all(struct plan *p)
{
	unsigned n = p->o.jobs < p->njobs ? p->o.jobs : p->njobs;

	if (n == 0)
		n = 1;
	if (n > MAX_JOBS)
		n = MAX_JOBS;
	pthread_t t[MAX_JOBS];
	bool show = !p->o.json && isatty(2);
	time_t t0 = time(NULL);

	if (n <= 1 && !show) {
		worker(p);
		return;
	}
	unsigned started = 0;
	while (started < n && pthread_create(&t[started], NULL, worker, p) == 0)
		started++;
	if (!started) /* no thread at all: the work is done here */
		worker(p);
	while (show && atomic_load(&p->done) < p->njobs) {
		progress(p, t0);
		usleep(200000);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	if (show)
		fputs("\r\033[K", stderr);
}

/* The schedule's whole line, whatever its length (NULL: out of memory);
 * free() it. */
static char *line_for(const struct plan *p, const struct job *j,
                      const struct sm_schedule *s)
{
	struct sm_schedule sch = *s;

	sch.dropped = j->dropped_kinds; /* the scenario as it was run */
	if (p->o.kernel_given || j->scn->cfg.kernel) /* and its kernel */
		sch.kernel = j->scn->cfg.kernel | SM_SCHED_KERNEL;
	char *line = sm_schedule_text(j->scn->cfg.arch, p->o.engine,
	                              j->reader->sched_name
	                              ? j->reader->sched_name : j->reader->name,
	                              j->scn_name, &sch);
	return line;
}

/* Each failing cell's lines, made before anything is printed or written:
 * 0, or -1 out of memory. */
static int lines_for_jobs(struct plan *p)
{
	for (unsigned i = 0; i < p->njobs; i++) {
		struct job *j = &p->jobs[i];
		if (j->error[0] || !sm_verdict_fails(j->cell.verdict))
			continue;
		j->min_line = line_for(p, j, &j->cell.min);
		j->found_line = line_for(p, j, &j->cell.found);
		if (!j->min_line || !j->found_line)
			return -1;
	}
	return 0;
}

/* traces/cex/READER-SCENARIO-ENGINE.trace, written whole or not at all
 * (outfile.c); 0, or -1 with one line on stderr. */
static int write_trace(const struct plan *p, struct job *j)
{
	char err[256];
	const char *dir = p->o.traces;
	struct sm_out o;

	if (p->o.no_traces || !sm_verdict_fails(j->cell.verdict))
		return 0;
	const char *base = strrchr(j->scn_name, '/');
	const char *rb = strrchr(j->reader->name, '/');
	const char *who = rb ? rb + 1 : j->reader->name;
	int len = snprintf(j->trace, sizeof(j->trace), "%s/%s-%s-%s.trace", dir,
	                   who, base ? base + 1 : j->scn_name,
	                   sm_engine_name(p->o.engine));
	if (len < (int)sizeof(j->trace)) { /* the reader's part: no ':' or '#' */
		char *q = j->trace + strlen(dir) + 1;
		for (char *end = q + strlen(who); q < end; q++)
			if (*q == ':' || *q == '#')
				*q = '_';
	}
	if (len >= (int)sizeof(j->trace))
		snprintf(err, sizeof(err), "%s", strerror(ENAMETOOLONG));
	else if (sm_mkdirs(dir, err, sizeof(err)) == 0 &&
	         sm_out_open(&o, j->trace, err, sizeof(err)) == 0) {
		/* one line a field, whatever the text holds: the names
		 * were checked at the door, the detail is made printable */
		char detail[sizeof(j->cell.res.detail)];
		snprintf(detail, sizeof(detail), "%s", j->cell.res.detail);
		sm_printable(detail);
		fprintf(o.f, "# selfmon counterexample; re-run it with: selfmon "
		        "replay %s [--explain]\nschedule %s\n", j->trace,
		        j->min_line);
		fprintf(o.f, "verdict %s\ndetail %s\n",
		        sm_verdict_name(j->cell.verdict), detail);
		fprintf(o.f, "found %s\n", j->found_line);
		if (sm_out_close(&o, err, sizeof(err)) == 0)
			return 0;
	}
	usage_error("check: cannot write the trace %s: %s", j->trace, err);
	j->trace[0] = '\0';
	return -1;
}

/* What --actions, --without and --drop-scripted changed, under the
 * arch's header. */
static void print_filter(const struct plan *p, enum sm_arch arch)
{
	const struct sm_action_filter *f = &p->o.af;
	char buf[256];

	if (!sm_action_filter_given(f))
		return;
	if (f->only)
		printf("kernel actions injected: %s (--actions)\n",
		       sm_action_set_text(f->only & ~f->without, buf, sizeof(buf)));
	if (f->without)
		printf("never injected: %s (--without)\n",
		       sm_action_set_text(f->without, buf, sizeof(buf)));
	for (unsigned i = 0; i < p->nscn; i++)
		if (p->scn[i]->cfg.arch == arch && p->dropped[i])
			printf("%s: %u scripted 'at' line%s skipped (--drop-scripted)"
			       "\n", p->scn_name[i], p->dropped[i],
			       p->dropped[i] == 1 ? "" : "s");
	if (!f->drop_scripted)
		printf("scripted 'at' lines still run (--drop-scripted skips those "
		       "of the actions left out)\n");
}

/* A failure's least bound, or -1: none known. */
static int least_bound(const struct job *j)
{
	return j->min_line && j->cell.least_bound != SM_LEAST_UNKNOWN
	       ? (int)j->cell.least_bound : -1;
}

/* A finished cell as a row of the table. */
static void print_row(const struct job *j)
{
	struct sm_table_row r = {
		.reader = j->reader->name, .scenario = j->scn_name,
		.verdict = sm_verdict_name(j->cell.verdict),
		.expected = expected_name(j), .as_expected = as_expected(j),
		.unjudged = j->unjudged, .incomplete = incomplete(j),
		.unsupported = j->cell.verdict == SM_V_UNSUPPORTED,
		.runs = j->cell.runs, .counter_path = j->cell.counter_path,
		.cex = j->min_line, .least_bound = least_bound(j),
		.error = j->error[0] ? j->error : NULL,
	};
	sm_table_row(&r);
}

/* explore's line under a cell: its counts and its last run. */
static void print_stats(const struct job *j)
{
	const struct sm_cell *c = &j->cell;

	printf("%-18s %" PRIu64 " schedules, %" PRIu64 " blocked, %" PRIu64
	       " on the counter path", "", c->runs, c->blocked, c->counter_path);
	if (c->pruning)
		printf("; %" PRIu64 " run, %" PRIu64 " counted from equal states "
		       "at %" PRIu64 " branch points%s", c->runs - c->pruned,
		       c->pruned, c->cuts, c->prune_full ? " (table full: "
		       "later equal states were run)" : "");
	printf("; last run: %s\n", c->res.detail);
}

static void print_table(const struct plan *p)
{
	const char *prev_arch = NULL;

	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];
		const char *arch = sm_arch_name(j->scn->cfg.arch);
		if (arch != prev_arch) {
			char kn[256], kernel[280] = "";
			if (p->o.kernel_given || j->scn->cfg.kernel) /* not base */
				snprintf(kernel, sizeof(kernel), ", kernel %s",
				         sm_kernel_text(j->scn->cfg.kernel, kn,
				                        sizeof(kn)));
			printf("%s%s, %s engine, bound %u%s%s\n", prev_arch ? "\n" : "",
			       arch, sm_engine_name(p->o.engine), p->o.x.bound,
			       p->o.x.random_runs ? ", random" : "", kernel);
			print_filter(p, j->scn->cfg.arch);
			sm_table_columns();
			prev_arch = arch;
		}
		print_row(j);
		if (!j->error[0] && p->o.explore_stats)
			print_stats(j);
	}
}

/* The cells not as expected, identical failures grouped (details.h):
 * 0, or -1 out of memory. */
static int print_details(const struct plan *p)
{
	struct sm_detail *d = calloc(p->njobs ? p->njobs : 1, sizeof(*d));
	size_t n = 0;

	if (!d)
		return -1;
	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];
		if (j->error[0] || as_expected(j))
			continue;
		d[n++] = (struct sm_detail){
			.reader = j->reader->name, .scenario = j->scn_name,
			.verdict = sm_verdict_name(j->cell.verdict),
			.expected = expected_name(j), .detail = j->cell.res.detail,
			.found = j->found_line, .min = j->min_line, .trace = j->trace,
		};
	}
	int rc = sm_details_print(d, n);
	free(d);
	return rc;
}

/* What `merge` needs to join shards: the version, the sweep's identity
 * and size, the options not already in the document. */
static void json_sweep(struct json *js, const struct plan *p)
{
	const struct sm_action_filter *f = &p->o.af;
	char buf[256];

	json_str(js, "version", SELFMON_VERSION);
	json_str(js, "sweep", sm_sweep_id_hex(&p->sweep, buf, sizeof(buf)));
	json_u64(js, "cells_total", p->ncells);
	json_u64(js, "seed", p->o.x.random_runs ? p->o.x.seed : 0);
	json_u64(js, "time_limit", p->o.x.time_limit);
	if (!sm_action_filter_given(f))
		return;
	json_begin(js, "filter", '{');
	if (f->only)
		json_str(js, "actions", sm_action_set_text(f->only & ~f->without,
		                                           buf, sizeof(buf)));
	if (f->without)
		json_str(js, "without", sm_action_set_text(f->without, buf,
		                                           sizeof(buf)));
	json_bool(js, "drop_scripted", f->drop_scripted);
	json_begin(js, "scripted_dropped", '[');
	for (unsigned i = 0; i < p->nscn; i++) {
		if (!p->dropped[i])
			continue;
		json_begin(js, NULL, '{');
		json_str(js, "arch", sm_arch_name(p->scn[i]->cfg.arch));
		json_str(js, "scenario", p->scn_name[i]);
		json_u64(js, "lines", p->dropped[i]);
		json_end(js, '{');
	}
	json_end(js, '[');
	json_end(js, '{');
}

static void print_json(const struct plan *p, const struct sm_tally *t)
{
	struct json js;

	json_init(&js, stdout);
	json_begin(&js, NULL, '{');
	json_str(&js, "engine", sm_engine_name(p->o.engine));
	json_u64(&js, "bound", p->o.x.bound);
	json_u64(&js, "random", p->o.x.random_runs);
	char shard[32]; /* two unsigned numbers fit */
	snprintf(shard, sizeof(shard), "%u/%u", p->o.shard, p->o.nshards);
	json_str(&js, "shard", shard);
	json_sweep(&js, p);
	json_begin(&js, "cells", '[');
	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];
		json_begin(&js, NULL, '{');
		json_str(&js, "arch", sm_arch_name(j->scn->cfg.arch));
		json_u64(&js, "index", j->index);
		json_str(&js, "outcome", sm_outcome_name[outcome(j)]);
		json_str(&js, "reader", j->reader->name);
		json_str(&js, "abi", sm_abi_name(j->reader->abi));
		json_str(&js, "scenario", j->scn_name);
		char kn[256];
		json_str(&js, "kernel", sm_kernel_text(j->scn->cfg.kernel, kn,
		                                       sizeof(kn)));
		json_str(&js, "verdict", j->error[0] ? "ERROR"
		                                     : sm_verdict_name(j->cell.verdict));
		json_str(&js, "expected", expected_name(j));
		if (j->row && sm_verdict_fails(j->expected)) {
			/* what the corpus declares, checked against the run's
			 * least_bound and counterexample by the tests */
			json_u64(&js, "expected_least_bound", j->row->least_bound);
			json_str(&js, "expected_needs", j->row->needs);
		}
		json_bool(&js, "as_expected", !j->error[0] && as_expected(j));
		json_bool(&js, "exhaustive", !j->error[0] && !p->o.x.random_runs &&
		          j->cell.verdict != SM_V_INCOMPLETE);
		json_u64(&js, "schedules", j->cell.runs);
		json_u64(&js, "blocked", j->cell.blocked);
		json_u64(&js, "pruned", j->cell.pruned);
		json_u64(&js, "counter_path", j->cell.counter_path);
		char acts[256];
		json_str(&js, "actions", sm_action_set_text(j->scn->explore, acts,
		                                            sizeof(acts)));
		json_u64(&js, "scripted_dropped", j->dropped);
		json_str(&js, "detail", j->error[0] ? j->error : j->cell.res.detail);
		if (!j->error[0])
			sm_result_json(&js, &j->cell.res);
		if (j->min_line) {
			if (least_bound(j) >= 0)
				json_u64(&js, "least_bound", j->cell.least_bound);
			json_str(&js, "counterexample", j->found_line);
			json_str(&js, "minimised", j->min_line);
			json_str(&js, "trace", j->trace);
		}
		json_end(&js, '{');
	}
	json_end(&js, '[');
	sm_table_json_counts(&js, t);
	json_end(&js, '{');
	putchar('\n');
}

/* What a cell is for a CI report (the exit status's reading of it). */
static enum sm_case_kind case_kind(const struct job *j)
{
	return j->error[0] ? SM_CASE_ERROR : incomplete(j) ? SM_CASE_SKIPPED
	       : as_expected(j) ? SM_CASE_PASS : SM_CASE_FAILURE;
}

/* --tap to f, or --junit into the file opened before the run: 0, -1
 * out of memory (said on stderr), -2 f reports a write error. */
/* A cell's result fields for the report (report.h knows no sm_result). */
static void report_fields(const struct job *j, struct sm_report_case *c,
                          struct sm_report_wrong w[3])
{
	const struct sm_result *r = &j->cell.res;

	if (j->error[0])
		return;
	if (r->verdict == SM_V_WRONG_VALUE)
		for (unsigned i = 0; i < r->nwrong && i < 3; i++) {
			const struct sm_wrong *x = &r->wrong[i];
			w[i] = (struct sm_report_wrong){
				.field = sm_wrong_field_name(x->field),
				.rc = (int64_t)x->value, .value = x->value,
				.truth_lo = x->truth_lo, .truth_hi = x->truth_hi,
				.offset_bits = x->offset_bits,
				.offset = x->above ? "above" : "below",
				.cause = sm_cause_name(x->cause) };
			c->nwrong = i + 1;
		}
	c->wrong = w;
	if (r->verdict == SM_V_FAULT && r->fault != SM_FK_NONE) {
		c->fault = sm_fault_kind_name(r->fault);
		c->has_pc = r->has_pc;
		c->fault_pc = r->fault_pc;
		c->has_addr = r->has_addr;
		c->fault_addr = r->fault_addr;
	}
}

static int write_report(const struct plan *p, FILE *f, bool tap)
{
	struct sm_report_case *c = calloc(p->njobs, sizeof(*c));
	struct sm_report_wrong (*w)[3] = calloc(p->njobs, sizeof(*w));
	int rc = c && w ? 0 : -1;

	for (unsigned i = 0; !rc && i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];
		c[i] = (struct sm_report_case){
			.arch = sm_arch_name(j->scn->cfg.arch),
			.reader = j->reader->name, .abi = sm_abi_name(j->reader->abi),
			.scenario = j->scn_name, .expected = expected_name(j),
			.verdict = j->error[0] ? "ERROR"
			           : sm_verdict_name(j->cell.verdict),
			.kind = case_kind(j), .trace = j->trace,
			.detail = j->error[0] ? j->error : j->cell.res.detail,
			.schedules = j->cell.runs, .blocked = j->cell.blocked,
			.counter_path = j->cell.counter_path, .seconds = j->seconds };
		c[i].found = j->found_line;      /* NULL unless it failed */
		c[i].minimised = j->min_line;
		report_fields(j, &c[i], w[i]);
	}
	struct sm_report r = { sm_engine_name(p->o.engine), p->o.x.bound,
	                       p->o.x.random_runs, c, p->njobs };
	if (!rc && (tap ? sm_report_tap(f, &r) : sm_report_junit(f, &r)) < 0)
		rc = -2;
	free(c);
	free(w);
	if (rc == -1)
		usage_error("check: cannot write the %s report: out of memory",
		            tap ? "TAP" : "JUnit");
	return rc;
}

/* The --junit file, written whole (outfile.c) or not at all. */
static int close_junit(const struct plan *p, struct sm_out *o)
{
	char err[256];

	if (write_report(p, o->f, false) == -1) {
		sm_out_abort(o);
		return -1;
	}
	if (sm_out_close(o, err, sizeof(err)) == 0) /* says a write error */
		return 0;
	usage_error("check: cannot write %s: %s", p->o.junit, err);
	return -1;
}

static void free_plan(struct plan *p)
{
	for (unsigned i = 0; i < p->nscn; i++) {
		free(p->scn[i]);
		free(p->scn_name[i]);
	}
	free(p->scn);
	free(p->scn_name);
	free(p->dropped);
	free(p->dropped_kinds);
	free(p->left_out);
	free(p->foreign);
	for (unsigned i = 0; p->users && i < p->o.nusers; i++)
		sm_user_reader_free(&p->users[i]);
	free(p->users);
	for (unsigned i = 0; p->jobs && i < p->njobs; i++) {
		free(p->jobs[i].min_line);
		free(p->jobs[i].found_line);
	}
	free(p->jobs);
	free(p);
}

/* Count the verdicts and write the traces: 0, or -1 when a trace could
 * not be written (said once; no partial set either). */
static int tally(struct plan *p, struct sm_tally *t)
{
	bool trace_failed = false;

	for (unsigned i = 0; i < p->njobs; i++) {
		struct job *j = &p->jobs[i];
		enum sm_outcome oc = outcome(j);
		t->as_expected += oc == SM_OC_AS_EXPECTED;
		t->errors += oc == SM_OC_ERROR;
		t->incomplete += oc == SM_OC_INCOMPLETE;
		t->unsupported += oc == SM_OC_UNSUPPORTED;
		t->unexpected += oc == SM_OC_UNEXPECTED;
		t->unjudged += oc == SM_OC_UNJUDGED;
		t->runs += j->cell.runs;
		if (!trace_failed && write_trace(p, j) < 0)
			trace_failed = true;
	}
	return trace_failed ? -1 : 0;
}

static void print_summary(const struct plan *p, const struct sm_tally *t,
                          time_t t0)
{
	sm_table_summary(p->njobs, t);
	printf("; %" PRIu64 " schedules in %.0f s%s\n", t->runs,
	       difftime(time(NULL), t0), p->o.x.random_runs
	       ? "; random sampling, not exhaustive" : "");
}

/* ---- --kernel-diff ----------------------------------------------------- */

static const char *verdict_of(const struct job *j)
{
	return j->error[0] ? "ERROR" : sm_verdict_name(j->cell.verdict);
}

/* A cell that passed on the old kernel and fails (or cannot run) on the
 * new one: something a correct reader relied on broke. */
static bool broke(const struct job *was, const struct job *now)
{
	return !was->error[0] && was->cell.verdict == SM_V_PASS &&
	       (now->error[0] || sm_verdict_fails(now->cell.verdict));
}

/* The failing side's minimised line (the new one's if both fail). */
static const struct job *failing_side(const struct job *was,
                                      const struct job *now)
{
	return now->min_line ? now : was->min_line ? was : NULL;
}

static void diff_json(const struct plan *p, const struct job *old,
                      unsigned changed, unsigned nbroke)
{
	struct json js;
	char kn[256];

	json_init(&js, stdout);
	json_begin(&js, NULL, '{');
	json_str(&js, "engine", sm_engine_name(p->o.engine));
	json_u64(&js, "bound", p->o.x.bound);
	json_str(&js, "variant", sm_kernel_text(p->o.diff, kn, sizeof(kn)));
	json_begin(&js, "cells", '[');
	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job *was = &old[i], *now = &p->jobs[i];
		if (!strcmp(verdict_of(was), verdict_of(now)))
			continue;
		const struct job *f = failing_side(was, now);
		json_begin(&js, NULL, '{');
		json_str(&js, "arch", sm_arch_name(now->scn->cfg.arch));
		json_str(&js, "reader", now->reader->name);
		json_str(&js, "scenario", now->scn_name);
		json_str(&js, "old_kernel", sm_kernel_text(now->scn->cfg.kernel &
		                                           ~p->o.diff, kn, sizeof(kn)));
		json_str(&js, "new_kernel", sm_kernel_text(now->scn->cfg.kernel, kn,
		                                           sizeof(kn)));
		json_str(&js, "old", verdict_of(was));
		json_str(&js, "new", verdict_of(now));
		json_bool(&js, "broke", broke(was, now));
		if (f) {
			json_str(&js, "failing", f == now ? "new" : "old");
			json_str(&js, "counterexample", f->min_line);
			json_str(&js, "detail", f->cell.res.detail);
		}
		json_end(&js, '{');
	}
	json_end(&js, '[');
	json_u64(&js, "compared", p->njobs);
	json_u64(&js, "changed", changed);
	json_u64(&js, "broke", nbroke);
	json_end(&js, '{');
	putchar('\n');
}

static void diff_table(const struct plan *p, const struct job *old,
                       unsigned changed, unsigned nbroke)
{
	char kn[256];

	printf("kernel diff: + %s, %s engine, bound %u: %u of %u cells "
	       "changed\n", sm_kernel_text(p->o.diff, kn, sizeof(kn)),
	       sm_engine_name(p->o.engine), p->o.x.bound, changed, p->njobs);
	if (changed)
		printf("%-8s %-18s %-18s %-12s    %-12s\n", "arch", "reader",
		       "scenario", "old", "new");
	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job *was = &old[i], *now = &p->jobs[i];
		char rb[SM_TABLE_COL + 1], sb[SM_TABLE_COL + 1];
		if (!strcmp(verdict_of(was), verdict_of(now)))
			continue;
		const struct job *f = failing_side(was, now);
		printf("%-8s %-18s %-18s %-12s -> %-12s%s\n",
		       sm_arch_name(now->scn->cfg.arch), sm_table_fit(now->reader->name, rb),
		       sm_table_fit(now->scn_name, sb), verdict_of(was), verdict_of(now),
		       broke(was, now) ? "   <-- BROKE" : "");
		if (f)
			printf("  %s fails: %s\n    %s\n", f == now ? "new" : "old",
			       f->min_line, f->cell.res.detail);
		else if (now->error[0] || was->error[0])
			printf("  %s\n", now->error[0] ? now->error : was->error);
	}
	printf("\n%u changed, %u broke (passed before, fail now)\n", changed,
	       nbroke);
}

/* Forget the results of every job for a second sweep. */
static void reset_jobs(struct plan *p)
{
	for (unsigned i = 0; i < p->njobs; i++) {
		struct job *j = &p->jobs[i];
		memset(&j->cell, 0, sizeof(j->cell));
		j->error[0] = j->trace[0] = '\0';
		j->min_line = j->found_line = NULL;
		j->seconds = 0;
	}
	atomic_store(&p->next, 0);
	atomic_store(&p->done, 0);
	atomic_store(&p->runs, 0);
}

/* The sweep was run on the old kernel: run it again with the variant
 * and print the cells whose verdict changed.  Exit status. */
static int run_diff(struct plan *p)
{
	struct job *old = malloc(p->njobs * sizeof(*old));
	unsigned changed = 0, nbroke = 0, errors = 0;

	if (!old)
		return usage_error("check: out of memory");
	memcpy(old, p->jobs, p->njobs * sizeof(*old));
	reset_jobs(p);
	for (unsigned i = 0; i < p->nscn; i++)
		p->scn[i]->cfg.kernel |= p->o.diff;
	run_all(p);
	int rc = lines_for_jobs(p) < 0 ? usage_error("check: out of memory") : 0;
	for (unsigned i = 0; i < p->njobs && !rc; i++) {
		changed += strcmp(verdict_of(&old[i]), verdict_of(&p->jobs[i])) != 0;
		nbroke += broke(&old[i], &p->jobs[i]);
		errors += old[i].error[0] || p->jobs[i].error[0];
	}
	if (!rc && p->o.json)
		diff_json(p, old, changed, nbroke);
	else if (!rc)
		diff_table(p, old, changed, nbroke);
	for (unsigned i = 0; i < p->njobs; i++) {
		free(old[i].min_line);
		free(old[i].found_line);
	}
	free(old);
	return rc ? rc : errors ? 2 : nbroke ? 1 : 0;
}

static int run_check(int argc, char **argv, bool stats)
{
	struct plan *p = calloc(1, sizeof(*p));
	if (!p)
		return usage_error("check: out of memory");
	int rc = parse_opts(argc, argv, &p->o);

	if (rc) {
		free(p);
		return rc == 1 ? 0 : rc;
	}
	p->o.explore_stats = stats;
	if (p->o.engine == SM_ENGINE_NATIVE && p->o.arch > 0)
		return free(p), usage_error("check: the native engine runs x86_64 "
		                            "only");
	if (p->o.arch >= 0 && !p->o.nusers &&
	    !sm_blob_for((enum sm_arch)p->o.arch)) {
		enum sm_arch a = (enum sm_arch)p->o.arch;
		free(p);
		return usage_error("check: no reader code was built for %s (its "
		                   "cross compiler was not found)", sm_arch_name(a));
	}
	if ((rc = load_users(p)) != 0 || (rc = load_scenarios(p)) != 0) {
		free_plan(p);
		return rc;
	}
	if ((rc = plan_jobs(p)) != 0) {
		free_plan(p);
		return rc;
	}
	if (p->ncells == 0) { /* (a shard may be empty: the others have cells) */
		free_plan(p);
		return usage_error("check: nothing to check (no scenario of a "
		                   "built arch)");
	}
	struct sm_out junit;
	char err[256];
	if (p->o.junit && sm_out_open(&junit, p->o.junit, err, sizeof(err)) < 0) {
		rc = usage_error("check: cannot write %s: %s", p->o.junit, err);
		free_plan(p);
		return rc;
	}
	time_t t0 = time(NULL);
	run_all(p);
	if (lines_for_jobs(p) < 0) {
		if (p->o.junit)
			sm_out_abort(&junit);
		free_plan(p);
		return usage_error("check: out of memory");
	}
	if (p->o.diff) {
		rc = run_diff(p);
		free_plan(p);
		return rc;
	}
	struct sm_tally t = { 0 };
	bool trace_failed = tally(p, &t) < 0;
	if (p->o.junit && close_junit(p, &junit) < 0)
		trace_failed = true; /* an output not written: exit 2 */
	if (p->o.tap) {
		int w = write_report(p, stdout, true);
		if (w == -2 || (w == 0 && fflush(stdout) != 0))
			usage_error("check: cannot write the TAP report: %s",
			            strerror(errno));
		trace_failed |= w != 0 || ferror(stdout);
	} else if (p->o.json) {
		print_json(p, &t);
	} else {
		print_table(p);
		if (print_details(p) < 0) {
			usage_error("check: out of memory");
			trace_failed = true; /* an output not written: exit 2 */
		}
		print_summary(p, &t, t0);
	}
	free_plan(p);
	return trace_failed ? 2 : sm_table_status(&t);
}

int cmd_check(int argc, char **argv)
{
	return run_check(argc, argv, false);
}

int cmd_explore(int argc, char **argv)
{
	return run_check(argc, argv, true);
}
