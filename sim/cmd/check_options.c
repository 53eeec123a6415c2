/*
 * check_options.c — check's and explore's command line (check.h).
 *
 * Owns: the usage text, the option table and the dispatch of every
 * option by name (one the table has but no case takes is selfmon's
 * internal error), and the checks between options.  It must not load,
 * plan or run anything: the traces directory is only checked writable.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "commands.h"
#include "input.h"
#include "names.h"
#include "options.h"
#include "outfile.h"
#include "reader_arg.h"
#include "render.h"

static const char usage[] =
	"usage: selfmon check [READER...] [options]\n"
	"       selfmon explore [READER...] [options]   (same, with statistics)\n\n"
	"Runs each reader in each scenario under every schedule of at most K\n"
	"injected kernel actions and judges every result against the model's\n"
	"ground truth.  With no READER, every built-in reader; with no\n"
	"--scenario, every bundled scenario of the arch.\n\n"
	"  READER          a built-in name (see 'selfmon list') or PATH:SYMBOL,\n"
	"                  a function in an ELF .o or .so (then --abi is needed)\n"
	"  --abi A         raw, times, scaled, values, delta or reset: how\n"
	"                  PATH:SYMBOL is called (delta, reset: PATH:FIRST,READ)\n"
	"  --name NAME     the PATH:SYMBOL reader's name in the table, TAP and\n"
	"                  JUnit (letters, digits, '_', '.', '-'; default its\n"
	"                  FILE:SYMBOL); selfmon_add_reader_check() passes NAME\n"
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
	"  -q, --quiet     no progress line (by default one on stderr: updated\n"
	"                  in place on a terminal, else a line every 10 s)\n"
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
	"  --junit FILE    also write a JUnit XML report (a test case per cell);\n"
	"                  FILE '-' (or /dev/stdout): on standard output, alone\n"
	"  --kernel K      run the model as kernel K: base (Linux 6.12 as it\n"
	"                  is), the version 7.2, or variants V[,V...] from\n"
	"                  'selfmon list' on top of either (7.2,V); the\n"
	"                  scenarios of arches a variant does not apply to are\n"
	"                  skipped (default: each scenario's own 'kernel' line)\n"
	"  --kernel-diff V run the sweep on the kernel (--kernel, or each\n"
	"                  scenario's) and again with V (a version such as 7.2\n"
	"                  and/or variants) added; print\n"
	"                  only the cells whose verdict changed.  Exit status 0\n"
	"                  when no cell that passed fails under V, 1 otherwise\n"
	"  --kernel-diff A..B  the same between kernel A and kernel B, each a\n"
	"                  kernel as --kernel takes (6.12..7.2 or\n"
	"                  7.2..7.2,userpage_wmb), on the arches both apply\n"
	"                  to; not with --kernel\n\n"
	"Verdicts: PASS (no schedule within the bound breaks the reader),\n"
	"WRONG_VALUE, FAULT, LIVELOCK, and INCOMPLETE: no failure found, but a\n"
	"schedule was still retrying at the step budget while the kernel kept\n"
	"writing, so not every schedule was judged.  ERROR is selfmon's own;\n"
	"UNSUPPORTED, an instruction a real CPU runs that the emulator cannot.\n\n"
	"Exit status: 0 every verdict as expected (and every cell explored\n"
	"exhaustively, or --random asked for), 1 a reader failed or a built-in\n"
	"reader did not get its expected verdict, 2 bad input or selfmon's own\n"
	"error, 3 no failure, but some cell INCOMPLETE, 4 no failure, but some\n"
	"cell UNSUPPORTED, 130 interrupted (SIGINT or SIGTERM: the table of the\n"
	"cells that finished, the others named, no trace or report written).\n";

static int number_arg(const char *opt, const char *v, uint64_t max,
                      uint64_t *out)
{
	char *end;

	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (!*v || *end || errno || x > max || *v == '-')
		return sm_error("check: bad value '%s' for %s (0..%" PRIu64 ")",
		                   v, opt, max);
	*out = x;
	return 0;
}

enum {
	O_JSON = SM_OPT_LONG, O_NO_TRACES, O_ARCH, O_ENGINE, O_SCENARIO, O_SHARD,
	O_ABI, O_TRACES, O_BOUND, O_RANDOM, O_TIME_LIMIT, O_SEED, O_TAP, O_JUNIT,
	O_KERNEL, O_KERNEL_DIFF, O_NO_PRUNE, O_NAME,
};

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ NULL, required_argument, 'j', NULL },
	{ "quiet", no_argument, 'q', NULL },
	{ "json", no_argument, O_JSON, NULL },
	{ "no-traces", no_argument, O_NO_TRACES, NULL },
	{ "no-prune", no_argument, O_NO_PRUNE, NULL },
	{ "arch", required_argument, O_ARCH, NULL },
	{ "engine", required_argument, O_ENGINE, "unicorn or native" },
	{ "scenario", required_argument, O_SCENARIO, NULL },
	{ "shard", required_argument, O_SHARD, "I/N, auto or auto/N" },
	{ "abi", required_argument, O_ABI, "raw, times, scaled, values, delta or reset" },
	{ "name", required_argument, O_NAME, "a NAME" },
	{ "traces", required_argument, O_TRACES, NULL },
	{ "bound", required_argument, O_BOUND, NULL },
	{ "random", required_argument, O_RANDOM, NULL },
	{ "time-limit", required_argument, O_TIME_LIMIT, NULL },
	{ "seed", required_argument, O_SEED, NULL },
	{ "tap", no_argument, O_TAP, NULL },
	{ "junit", required_argument, O_JUNIT, "a file" },
	{ "kernel", required_argument, O_KERNEL, "base or V[,V...]" },
	{ "kernel-diff", required_argument, O_KERNEL_DIFF, "V or A..B" },
	SM_ACTION_FILTER_OPTIONS,
	{ 0 },
};

/* READER: a built-in name or PATH:SYMBOL. */
static int take_reader(struct opts *o, const char *a)
{
	if (sm_reader_find(a)) {
		if (o->nreaders == 64)
			return sm_error("check: too many readers");
		o->readers[o->nreaders++] = a;
	} else if (strchr(a, ':')) {
		if (o->nusers == 16)
			return sm_error("check: too many readers");
		o->users[o->nusers++] = a;
	} else {
		return sm_error("check: unknown reader '%s'%s (a built-in name "
		                "from 'selfmon list', or PATH:SYMBOL)", a,
		                sm_reader_hint(a));
	}
	return 0;
}

/* An option in the table that no case takes: selfmon's own error (a new
 * option must be dispatched, never parsed as another). */
static int not_dispatched(int c)
{
	return sm_error("check: internal error: option %d is not handled", c);
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
			return sm_error("check: unknown arch '%s' (x86_64, "
			                   "arm64, riscv64 or all)", val);
		return 0;
	case O_ENGINE:
		if (strcmp(val, "unicorn") && strcmp(val, "native"))
			return sm_error("check: --engine must be unicorn or native");
		o->engine = strcmp(val, "native") ? SM_ENGINE_UNICORN
		                                  : SM_ENGINE_NATIVE;
		return 0;
	case O_ABI:
		return sm_abi_arg("check", val, &o->abi);
	case O_SHARD:
		if (sm_shard_parse(val, &si, &sn, o->shard_note,
		                   sizeof(o->shard_note), err, sizeof(err)) < 0)
			return sm_error("check: %s", err);
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

/* --kernel LIST and --kernel-diff V or A..B: 0, or 2 after the error
 * line. */
static int take_kernel(struct opts *o, int c, const char *val)
{
	char why[200];
	unsigned bits;

	if (c == O_KERNEL_DIFF) {
		if (sm_kernel_diff_parse(val, &o->diff_from, &o->diff,
		                         &o->diff_range, why, sizeof(why)) < 0)
			return sm_error("check: --kernel-diff: %s", why);
		if (!o->diff_range && !o->diff)
			return sm_error("check: --kernel-diff needs a version or a "
			                "variant, not base (see 'selfmon list'), or "
			                "A..B");
		o->diffing = true;
		return 0;
	}
	if (sm_kernel_parse(val, -1, &bits, why, sizeof(why)) < 0)
		return sm_error("check: %s", why);
	o->kernel_given = true;
	o->kernel = bits;
	return 0;
}

/* --kernel-diff A..B: A is every scenario's kernel, as --kernel would
 * make it; some arch must take both kernels.  0, or 2 after the error
 * line. */
static int diff_range(struct opts *o)
{
	char why[200] = "no arch takes both", a[128], b[128];

	if (o->kernel_given)
		return sm_error("check: --kernel-diff A..B names both kernels: "
		                "--kernel is not for it");
	o->kernel_given = true;
	o->kernel = o->diff_from;
	unsigned from = sm_kernel_arches(o->diff_from);
	if (sm_kernel_arches(o->diff_from | o->diff))
		return 0;
	/* why: B on the first arch A takes, or A's own conflict */
	int i = 0;
	while (i < SM_NARCH - 1 && from && !(from & (1u << i)))
		i++;
	sm_kernel_check_arch(from ? o->diff : o->diff_from, (enum sm_arch)i,
	                     why, sizeof(why));
	return sm_error("check: --kernel-diff %s..%s compares no cell: %s",
	                sm_kernel_text(o->diff_from, a, sizeof(a)),
	                sm_kernel_text(o->diff, b, sizeof(b)), why);
}

/* The switch a flag option sets. */
static bool *flag(struct opts *o, int c)
{
	return c == O_JSON ? &o->json : c == O_NO_TRACES ? &o->no_traces
	       : c == O_NO_PRUNE ? &o->x.no_prune : c == 'q' ? &o->quiet
	       : &o->tap;
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
	case O_JSON: case O_NO_TRACES: case O_NO_PRUNE: case O_TAP: case 'q':
		*flag(o, c) = true;
		return 0;
	case O_SCENARIO:
		if (o->nscenarios == MAX_SCENARIOS)
			return sm_error("check: too many scenarios");
		o->scenarios[o->nscenarios++] = val;
		return 0;
	case O_TRACES:
		o->traces = val;
		return 0;
	case O_JUNIT:
		o->junit = val;
		return 0;
	case O_NAME:
		if (!*val || strlen(val) > 128 ||
		    strspn(val, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		           "0123456789_.-") != strlen(val))
			return sm_error("check: bad --name '%s' (1 to 128 letters, "
			                "digits, '_', '.' or '-')", val);
		o->name = val;
		return 0;
	case O_ARCH: case O_ENGINE: case O_ABI: case O_SHARD:
		return take_choice(o, c, val);
	case O_KERNEL: case O_KERNEL_DIFF:
		return take_kernel(o, c, val);
	case SM_AF_ACTIONS: case SM_AF_WITHOUT: case SM_AF_DROP:
		if (sm_action_filter_opt(&o->af, c, val, err, sizeof(err)) < 0)
			return sm_error("check: %s", err);
		return 0;
	case 'j': case O_BOUND: case O_RANDOM: case O_TIME_LIMIT: case O_SEED:
		return take_number(o, c, val, seeded);
	}
	return not_dispatched(c);
}


int check_parse_opts(int argc, char **argv, struct opts *o)
{
	struct sm_opt op;
	char all[128];
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
	o->x.no_stale = sm_action_filter_no_stale(&o->af);
	if (o->nusers && o->abi < 0)
		return sm_error("check: %s needs --abi %s", o->users[0],
		                sm_abi_list(all, sizeof(all), "|", "|", false));
	if (!o->nusers && o->abi >= 0)
		return sm_error("check: --abi applies to PATH:SYMBOL readers only");
	if (o->name && (o->nusers != 1 || o->nreaders))
		return sm_error("check: --name names one PATH:SYMBOL reader, "
		                "checked alone");
	if (sm_outputs_check("check", o->tap, o->json, o->junit))
		return 2;
	if (seeded && !o->x.random_runs)
		return sm_error("check: --seed applies to --random N only");
	if (o->diffing && (o->tap || o->junit))
		return sm_error("check: --kernel-diff prints its own table or "
		                   "--json, not --tap or --junit");
	if (o->diff_range && diff_range(o) != 0)
		return 2;
	if (o->diffing)
		o->no_traces = true; /* the diff prints both sides' lines */
	unsigned arches = sm_kernel_arches(o->kernel | o->diff);
	if (o->arch >= 0 && !(arches & (1u << o->arch))) {
		char why[200];
		sm_kernel_check_arch(o->kernel | o->diff, (enum sm_arch)o->arch, why,
		                     sizeof(why));
		return sm_error("check: %s", why);
	}
	char why[256];
	if (!o->no_traces && sm_text_check(o->traces, why, sizeof(why)) < 0)
		return sm_error("check: bad --traces %s: %s (trace paths go "
		                   "into the traces and the reports)", o->traces,
		                   why);
	if (!o->no_traces && sm_dir_writable(o->traces, why, sizeof(why)) < 0)
		return sm_error("check: cannot write traces to %s: %s (--traces "
		                   "DIR or --no-traces)", o->traces, why);
	if (o->shard_note[0]) /* where --shard auto found I/N: stderr, once */
		fprintf(stderr, "selfmon: %s\n", o->shard_note);
	return 0;
}

