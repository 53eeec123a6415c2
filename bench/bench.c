/*
 * bench.c — selfmon's benchmarks: they print figures (a table, and one
 * JSON document with --json) and never pass or fail on time.
 *
 *   1. explorer throughput: schedules per second on one core, per engine
 *      and arch, for the reference reader and libperf_sext, bounds 1-3;
 *      and the wall time of the default `selfmon check` with -j 1 and -j 2;
 *   2. the cost of one schedule, taken apart: model, snapshot restore,
 *      emulation with its hooks, oracle;
 *   3. reader cost: emulated instructions per successful read, on the fast
 *      path (pinned) and the multiplexed path, every reader, every arch;
 *   4. native cost: ns per read of the reference reader against the
 *      model's routed primitives, beside the minimal pinned loop;
 *   5. the model alone: page updates per second;
 *   6. peak memory (the largest resident set, getrusage's ru_maxrss) of
 *      `selfmon check`, `replay --explain` and `explain-bug` as child
 *      processes, and of this benchmark itself (VmHWM);
 *   7. with --sweeps (minutes): the wall time of the full bound-3 sweep
 *      (`selfmon check --bound 3`, every reader, scenario and arch) on all
 *      CPUs, and of bound 4 for the reference reader in one scenario per
 *      arch on one; each also with --no-prune, for what pruning saves.
 *
 * Usage: selfmon_bench [--json] [--quick] [--sweeps]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bundled.h"
#include "explore.h"
#include "json.h"

static bool quick;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static struct sm_scenario *scenario(const char *name)
{
	static struct sm_scenario cache[16];
	static char names[16][64];
	static unsigned n;
	char err[1024] = "too many scenarios";

	for (unsigned i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return &cache[i];
	if (n == 16 || sm_scenario_open(name, &cache[n], err, sizeof(err)) < 0) {
		fprintf(stderr, "bench: %s\n", err);
		exit(2);
	}
	snprintf(names[n], sizeof(names[n]), "%s", name);
	return &cache[n++];
}

static struct sm_session *session(const char *reader, const char *scn,
                                  enum sm_engine_kind e)
{
	struct sm_session *s = sm_session_new();
	char err[512];
	const struct sm_reader *r = sm_reader_find(reader);

	if (!s || !r || sm_session_init(s, scenario(scn), r, e, err,
	                                sizeof(err)) < 0) {
		sm_session_free(s);
		return NULL;
	}
	return s;
}

/* ---- 1. explorer throughput ----------------------------------------- */

struct through {
	const char *engine, *arch, *reader, *scenario;
	unsigned bound;
	uint64_t schedules;
	double seconds;
};

static void throughput(struct through *t, enum sm_engine_kind e)
{
	struct sm_explore_opts o = { .bound = t->bound };
	struct sm_cell cell;
	struct sm_session *s = session(t->reader, t->scenario, e);

	t->schedules = 0;
	t->seconds = 0;
	if (!s)
		return;
	double t0 = now_s();
	do {
		sm_explore(s, &o, &cell);
		t->schedules += cell.runs;
	} while (now_s() - t0 < (quick ? 0.2 : 1.0));
	t->seconds = now_s() - t0;
	sm_session_free(s);
}

/* `selfmon check ARGS --json`: its wall time, and its schedules (the
 * summary's, which follows the cells). */
static double sweep_wall(const char *args, uint64_t *schedules)
{
	char cmd[1024], *doc = NULL, *k, *last = NULL;
	size_t cap = 0, n = 0, got;
	snprintf(cmd, sizeof(cmd), "'%s' check --no-traces --json --time-limit 0 "
	         "%s 2>/dev/null", SELFMON_BIN, args);
	double t0 = now_s();
	FILE *p = popen(cmd, "r");
	*schedules = 0;
	if (!p)
		return -1;
	do {
		if (cap - n < 4096 && !(doc = realloc(doc, (cap += 1 << 20) + 1)))
			exit(2);
		n += got = fread(doc + n, 1, cap - n, p);
	} while (got);
	int st = pclose(p);
	double s = now_s() - t0;
	doc[n] = '\0';
	for (k = doc; (k = strstr(k, "\"schedules\":")); k++)
		last = k;
	if (last)
		*schedules = strtoull(last + 12, NULL, 10);
	free(doc);
	return st == -1 ? -1 : s;
}

static double check_wall(unsigned jobs)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "'%s' check --no-traces -j %u >/dev/null 2>&1",
	         SELFMON_BIN, jobs);
	double t0 = now_s();
	if (system(cmd) != 0)
		return -1;
	return now_s() - t0;
}

/* ---- 6. peak memory ---------------------------------------------------- */

/* The peak resident set (KiB) of `selfmon ARGS...` run as a child (its
 * output discarded), or 0 when it could not run or exited 2. */
static uint64_t child_peak_kib(const char *const *args)
{
	char *argv[16];
	unsigned n = 0;
	struct rusage ru;
	int st;

	argv[n++] = (char *)SELFMON_BIN;
	for (; args[n - 1] && n < 15; n++)
		argv[n] = (char *)args[n - 1];
	argv[n] = NULL;
	fflush(NULL); /* or the child's exit writes our buffers again */
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen("/dev/null", "w", stderr))
			_exit(2);
		execv(SELFMON_BIN, argv);
		_exit(2);
	}
	if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) == 2)
		return 0;
	return (uint64_t)ru.ru_maxrss; /* KiB on Linux */
}

/* This process's own peak resident set (VmHWM, KiB), 0 if unknown. */
static uint64_t own_peak_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	uint64_t kib = 0;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			kib = strtoull(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kib;
}

static const struct peak_case {
	const char *what;
	const char *args[8];
} peak_cases[] = {
	{ "check (one cell)", { "check", "no_sext", "--arch", "x86_64",
	  "--scenario", "x86_overflow", "--no-traces", NULL } },
	{ "replay --explain", { "replay", "x86_64:unicorn:no_sext:"
	  "x86_overflow:-", "--explain", NULL } },
	{ "explain-bug", { "explain-bug", "no_sext", NULL } },
};
#define NPEAK (sizeof(peak_cases) / sizeof(peak_cases[0]))

/* ---- 2. one schedule taken apart ------------------------------------ */

struct breakdown {
	double model_ns, restore_ns, emulate_ns, oracle_ns, total_ns, startstop_ns;
	uint64_t steps;
};

static void take_apart(struct breakdown *b)
{
	struct sm_session *s = session("reference", "x86_pinned",
	                               SM_ENGINE_UNICORN);
	const struct sm_engine_ops *ops = sm_engine_ops(SM_ENGINE_UNICORN);
	unsigned n = quick ? 2000 : 20000;
	uint64_t v[3];

	memset(b, 0, sizeof(*b));
	if (!s)
		return;
	ops->begin(s);
	void *snap = ops->save(s, NULL);
	double t0 = now_s();
	for (unsigned i = 0; i < n; i++) /* restore + run to the end */
		ops->restore(s, snap), ops->run(s, UINT64_MAX);
	b->total_ns = (now_s() - t0) * 1e9 / n;
	b->steps = s->res.steps;
	t0 = now_s();
	for (unsigned i = 0; i < n; i++)
		ops->restore(s, snap);
	b->restore_ns = (now_s() - t0) * 1e9 / n;
	memcpy(v, s->res.value, sizeof(v));
	t0 = now_s();
	for (unsigned i = 0; i < n; i++)
		sm_oracle_judge(s, v, 0);
	b->oracle_ns = (now_s() - t0) * 1e9 / n;
	/* the model's share: one tick per step plus the samples */
	t0 = now_s();
	for (unsigned i = 0; i < n; i++) {
		ops->restore(s, snap);
		for (uint64_t k = 0; k < b->steps; k++)
			s->run.step++, sm_session_tick(s);
		sm_session_settle(s); /* the samples are paid in spans */
	}
	b->model_ns = (now_s() - t0) * 1e9 / n - b->restore_ns;
	/* an emulator start that stops at once, before the first step */
	t0 = now_s();
	for (unsigned i = 0; i < n; i++) {
		ops->restore(s, snap);
		ops->run(s, s->run.step);
	}
	b->startstop_ns = (now_s() - t0) * 1e9 / n - b->restore_ns;
	b->emulate_ns = b->total_ns - b->restore_ns - b->model_ns - b->oracle_ns -
	                b->startstop_ns;
	ops->free_snap(snap);
	sm_session_free(s);
}

/* ---- 3. reader cost ------------------------------------------------- */

static uint64_t steps_of(const char *reader, const char *scn)
{
	struct sm_session *s = session(reader, scn, SM_ENGINE_UNICORN);
	struct sm_schedule none = { 0 };

	if (!s)
		return 0;
	sm_run_schedule(s, &none);
	uint64_t steps = sm_verdict_fails(s->res.verdict) ? 0 : s->res.steps;
	sm_session_free(s);
	return steps;
}

/* A variant is correct when it is declared to pass every scenario but
 * the kernel hazard one. */
static bool correct(const struct sm_reader *r)
{
	for (const struct sm_expect *x = r->expect; x && x->scenario; x++)
		if ((x->engines & (1u << SM_ENGINE_UNICORN)) &&
		    sm_verdict_fails(x->verdict) &&
		    strcmp(x->scenario, "riscv64_rotate"))
			return false;
	return true;
}

/* ---- 4. native cost, 5. model --------------------------------------- */

static double native_ns(const char *reader)
{
	struct sm_session *s = session(reader, "x86_pinned", SM_ENGINE_NATIVE);
	const struct sm_engine_ops *ops = sm_engine_ops(SM_ENGINE_NATIVE);
	unsigned n = quick ? 20000 : 200000;

	if (!s)
		return -1;
	double t0 = now_s();
	for (unsigned i = 0; i < n; i++) {
		ops->begin(s);
		ops->run(s, UINT64_MAX);
	}
	double per_call = (now_s() - t0) * 1e9 / n;
	t0 = now_s(); /* the same without the reader: begin only */
	for (unsigned i = 0; i < n; i++)
		ops->begin(s);
	per_call -= (now_s() - t0) * 1e9 / n;
	sm_session_free(s);
	return per_call;
}

static double model_updates_per_s(void)
{
	struct sm_action a = { .kind = SM_ACT_RESET, .event = 0,
	                       .cpu = SM_AUTO, .counter = SM_AUTO };
	char err[128];
	unsigned n = quick ? 200000 : 2000000;
	struct sm_model *m = sm_model_new(&scenario("x86_pinned")->cfg, NULL,
	                                  NULL, err, sizeof(err));

	if (!m)
		return -1;
	uint64_t before = sm_model_updates(m);
	double t0 = now_s();
	for (unsigned i = 0; i < n; i++) {
		sm_model_apply(m, &a, err, sizeof(err));
		sm_model_advance(m, 10);
	}
	double r = (double)(sm_model_updates(m) - before) / (now_s() - t0);
	sm_model_free(m);
	return r;
}

/* ---- output --------------------------------------------------------- */

int main(int argc, char **argv)
{
	bool json = false, sweeps = false;
	struct json j;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--sweeps"))
			sweeps = true;
		else
			return fprintf(stderr, "usage: selfmon_bench [--json] "
			               "[--quick] [--sweeps]\n"), 2;
	}
	FILE *out = json ? stderr : stdout; /* the table when --json: stderr */
	static const struct { const char *arch, *scn; } cases[] = {
		{ "x86_64", "x86_pinned" }, { "arm64", "arm64_bias" },
		{ "riscv64", "riscv64" },
	};
	static const char *const readers[] = { "reference", "libperf_sext" };
	struct through th[64];
	unsigned nth = 0;

	fprintf(out, "1. explorer throughput (one core)\n");
	fprintf(out, "%-8s %-8s %-14s %-12s %5s %10s %14s\n", "engine", "arch",
	        "reader", "scenario", "bound", "schedules", "schedules/s");
	for (int e = 0; e < SM_NENGINES; e++)
		for (size_t c = 0; c < 3; c++) {
			int arch = sm_arch_from_name(cases[c].arch);
			if (!sm_blob_for((enum sm_arch)arch) ||
			    (e == SM_ENGINE_NATIVE && arch != SM_X86_64))
				continue;
			for (size_t r = 0; r < 2; r++)
				for (unsigned b = 1; b <= 3; b++) {
					struct through *t = &th[nth++];
					*t = (struct through){ sm_engine_name(e), cases[c].arch,
					                       readers[r], cases[c].scn, b, 0, 0 };
					throughput(t, (enum sm_engine_kind)e);
					fprintf(out, "%-8s %-8s %-14s %-12s %5u %10" PRIu64
					        " %14.0f\n", t->engine, t->arch, t->reader,
					        t->scenario, b, t->schedules,
					        t->seconds > 0 ? t->schedules / t->seconds : 0);
				}
		}
	double wall1 = check_wall(1), wall2 = check_wall(2);
	fprintf(out, "default check (all readers, scenarios, arches, bound 2): "
	        "%.2f s with -j 1, %.2f s with -j 2\n", wall1, wall2);

	struct breakdown bd;
	take_apart(&bd);
	fprintf(out, "\n2. one schedule of the reference reader (x86_pinned, "
	        "%" PRIu64 " steps), ns\n", bd.steps);
	fprintf(out, "   total %.0f = snapshot restore %.0f + emulator start/stop "
	        "%.0f + model (ticks, samples) %.0f + instructions and hooks %.0f"
	        " + oracle %.0f\n", bd.total_ns, bd.restore_ns, bd.startstop_ns,
	        bd.model_ns, bd.emulate_ns, bd.oracle_ns);

	fprintf(out, "\n3. emulated instructions per successful read (no kernel "
	        "action)\n%-22s", "reader");
	for (size_t c = 0; c < 3; c++)
		fprintf(out, " %8s:pin %8s:mux", cases[c].arch, cases[c].arch);
	fprintf(out, "\n");
	static const char *const mux[] = { "x86_multiplex", "arm64_counters",
	                                   "riscv64" };
	uint64_t cost[64][6], best[6] = { 0 };
	for (unsigned i = 0; i < sm_nreaders; i++) {
		const struct sm_reader *r = &sm_readers[i];
		fprintf(out, "%-22s", r->name);
		for (size_t c = 0; c < 3; c++)
			for (int k = 0; k < 2; k++) {
				int arch = sm_arch_from_name(cases[c].arch);
				uint64_t v = sm_blob_for((enum sm_arch)arch) &&
				             sm_reader_on(r, (enum sm_arch)arch)
				             ? steps_of(r->name, k ? mux[c] : cases[c].scn)
				             : 0;
				cost[i][c * 2 + k] = v;
				if (v && correct(r) && (!best[c * 2 + k] || v < best[c * 2 + k]))
					best[c * 2 + k] = v;
				if (v)
					fprintf(out, " %12" PRIu64, v);
				else
					fprintf(out, " %12s", "-");
			}
		fprintf(out, "%s\n", correct(r) ? "  (correct)" : "");
	}
	fprintf(out, "%-22s", "reference / cheapest");
	for (int k = 0; k < 6; k++)
		if (best[k] && cost[0][k])
			fprintf(out, " %12.2f", (double)cost[0][k] / best[k]);
		else
			fprintf(out, " %12s", "-");
	fprintf(out, "\n");

	double ref_ns = native_ns("reference"), pin_ns = native_ns("pinned_loop");
	fprintf(out, "\n4. native, ns per read against the routed model: "
	        "reference %.1f, pinned loop %.1f, ratio %.2f\n", ref_ns, pin_ns,
	        pin_ns > 0 ? ref_ns / pin_ns : 0);
	double ups = model_updates_per_s();
	fprintf(out, "\n5. model: %.0f page updates per second\n", ups);

	uint64_t peak[NPEAK];
	fprintf(out, "\n6. peak memory (resident, KiB)\n");
	for (size_t i = 0; i < NPEAK; i++) {
		peak[i] = child_peak_kib(peak_cases[i].args);
		fprintf(out, "   %-20s %10" PRIu64 "\n", peak_cases[i].what, peak[i]);
	}
	uint64_t own_peak = own_peak_kib();
	fprintf(out, "   %-20s %10" PRIu64 "\n", "this benchmark", own_peak);

	struct { const char *what; char args[128]; double s; uint64_t n; } sw[8];
	unsigned nsw = 0;
	if (sweeps) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		sw[nsw].what = "bound 3, every cell";
		snprintf(sw[nsw++].args, sizeof(sw[0].args), "--bound 3 -j %ld",
		         cpus > 0 ? cpus : 1);
		for (size_t c = 0; c < 3; c++) {
			int arch = sm_arch_from_name(cases[c].arch);
			if (!sm_blob_for((enum sm_arch)arch))
				continue;
			sw[nsw].what = "bound 4, reference";
			snprintf(sw[nsw++].args, sizeof(sw[0].args), "reference --arch "
			         "%s --scenario %s --bound 4 -j 1", cases[c].arch,
			         cases[c].scn);
		}
		for (unsigned i = 0, n = nsw; i < n; i++) {
			sw[nsw] = sw[i];
			snprintf(sw[nsw++].args, sizeof(sw[0].args), "%s --no-prune",
			         sw[i].args);
		}
		fprintf(out, "\n7. sweeps (wall time)\n");
		for (unsigned i = 0; i < nsw; i++) {
			sw[i].s = sweep_wall(sw[i].args, &sw[i].n);
			fprintf(out, "   %-20s %-58s %7.1f s %11" PRIu64 " schedules "
			        "%9.0f/s\n", sw[i].what, sw[i].args, sw[i].s, sw[i].n,
			        sw[i].s > 0 ? sw[i].n / sw[i].s : 0);
		}
	}

	if (!json)
		return 0;
	json_init(&j, stdout);
	json_begin(&j, NULL, '{');
	json_begin(&j, "throughput", '[');
	for (unsigned i = 0; i < nth; i++) {
		json_begin(&j, NULL, '{');
		json_str(&j, "engine", th[i].engine);
		json_str(&j, "arch", th[i].arch);
		json_str(&j, "reader", th[i].reader);
		json_str(&j, "scenario", th[i].scenario);
		json_u64(&j, "bound", th[i].bound);
		json_u64(&j, "schedules", th[i].schedules);
		json_u64(&j, "schedules_per_s", th[i].seconds > 0
		         ? (uint64_t)(th[i].schedules / th[i].seconds) : 0);
		json_end(&j, '{');
	}
	json_end(&j, '[');
	json_u64(&j, "check_ms_j1", (uint64_t)(wall1 * 1000));
	json_u64(&j, "check_ms_j2", (uint64_t)(wall2 * 1000));
	json_begin(&j, "schedule_ns", '{');
	json_u64(&j, "total", (uint64_t)bd.total_ns);
	json_u64(&j, "restore", (uint64_t)bd.restore_ns);
	json_u64(&j, "start_stop", (uint64_t)(bd.startstop_ns > 0 ? bd.startstop_ns : 0));
	json_u64(&j, "model", (uint64_t)bd.model_ns);
	json_u64(&j, "emulation", (uint64_t)(bd.emulate_ns > 0 ? bd.emulate_ns : 0));
	json_u64(&j, "oracle", (uint64_t)bd.oracle_ns);
	json_end(&j, '{');
	json_begin(&j, "read_instructions", '[');
	for (unsigned i = 0; i < sm_nreaders; i++) {
		json_begin(&j, NULL, '{');
		json_str(&j, "reader", sm_readers[i].name);
		json_bool(&j, "correct", correct(&sm_readers[i]));
		for (size_t c = 0; c < 3; c++) {
			char key[32];
			snprintf(key, sizeof(key), "%s_pinned", cases[c].arch);
			json_u64(&j, key, cost[i][c * 2]);
			snprintf(key, sizeof(key), "%s_mux", cases[c].arch);
			json_u64(&j, key, cost[i][c * 2 + 1]);
		}
		json_end(&j, '{');
	}
	json_end(&j, '[');
	json_u64(&j, "native_reference_ps", (uint64_t)(ref_ns * 1000));
	json_u64(&j, "native_pinned_loop_ps", (uint64_t)(pin_ns * 1000));
	json_u64(&j, "model_updates_per_s", (uint64_t)ups);
	json_begin(&j, "peak_kib", '{');
	json_u64(&j, "check", peak[0]);
	json_u64(&j, "replay_explain", peak[1]);
	json_u64(&j, "explain_bug", peak[2]);
	json_u64(&j, "bench", own_peak);
	json_end(&j, '{');
	json_begin(&j, "sweeps", '[');
	for (unsigned i = 0; i < nsw; i++) {
		json_begin(&j, NULL, '{');
		json_str(&j, "args", sw[i].args);
		json_u64(&j, "ms", (uint64_t)(sw[i].s * 1000));
		json_u64(&j, "schedules", sw[i].n);
		json_end(&j, '{');
	}
	json_end(&j, '[');
	json_end(&j, '{');
	putchar('\n');
	return 0;
}
