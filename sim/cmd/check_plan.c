/*
 * check_plan.c — check's sweep: the readers and scenarios it loads, the
 * cells it plans (arch x reader x scenario, this shard's), their
 * expectations, the workers that explore them (-j) and each failing
 * cell's schedule lines (check.h).
 *
 * Owns: what a cell is held to (a corpus row, a scenario's expect, or
 * none) and the sweep's identity over every cell of all shards.  It must
 * not print a result or write a file: the reports are cmd_check.c's, the
 * traces check_traces.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include <unistd.h>

#include "bundled.h"
#include "check.h"
#include "lookalike.h"
#include "commands.h"

/* Load each PATH:SYMBOL; their arch must agree with --arch. */
int check_load_users(struct plan *p)
{
	char err[600];

	if (!p->o.nusers)
		return 0;
	if (p->o.engine == SM_ENGINE_NATIVE)
		return sm_error("check: PATH:SYMBOL readers run in the unicorn "
		                   "engine only");
	if (!(p->users = calloc(p->o.nusers, sizeof(*p->users))))
		return sm_error("check: out of memory");
	for (unsigned i = 0; i < p->o.nusers; i++) {
		struct sm_user_reader *u = &p->users[i];
		if (sm_user_reader_load(p->o.users[i], (enum sm_abi)p->o.abi, u, err,
		                        sizeof(err)) < 0)
			return sm_error("%s", err);
		if (p->o.arch >= 0 && p->o.arch != (int)u->img.arch)
			return sm_error("check: %s is %s code, not %s", p->o.users[i],
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
		return sm_error("check: %s: %s", s->name, why);
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
			return sm_error("check: --actions %s does not apply to %s "
			                   "(scenario %s; choose another arch with "
			                   "--arch)", sm_action_name((enum sm_action_kind)k),
			                   sm_arch_name(s->cfg.arch), s->name);
	/* the CPU's stale read is arm64's (a PMSELR_EL0 select) */
	if ((p->o.af.only & SM_AF_STALE) && s->cfg.arch != SM_ARM64 &&
	    (p->o.arch < 0 || p->o.arch == (int)s->cfg.arch))
		return sm_error("check: --actions " SM_AF_STALE_NAME " does not "
		                "apply to %s (scenario %s; choose another arch with "
		                "--arch)", sm_arch_name(s->cfg.arch), s->name);
	return 0;
}

int check_load_scenarios(struct plan *p)
{
	char err[1024], **names;
	int n = scenario_names(p, &names), rc = 0;

	if (n < 0 || alloc_scenarios(p, n) < 0) {
		sm_names_free(names, n);
		return sm_error("check: out of memory");
	}
	for (int i = 0; i < n && !rc; i++) {
		struct sm_scenario *s = malloc(sizeof(*s));
		if (!s)
			rc = sm_error("check: out of memory");
		else if (sm_scenario_open(names[i], s, err, sizeof(err)) < 0)
			rc = sm_error("%s", err);
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
	j->at = at;
	j->nlooks_like = 0;
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

int check_plan_jobs(struct plan *p)
{
	unsigned max = (sm_nreaders + p->o.nusers) * p->nscn;

	if (!p->o.nusers || p->o.nreaders)
		note_skipped(p);
	if (!(p->jobs = calloc(max ? max : 1, sizeof(*p->jobs))))
		return sm_error("check: out of memory");
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
		/* the native reader loads selfmon's copy of the page, which
		 * no munmap can take away (engine_native.c) */
		if (p->o.engine == SM_ENGINE_NATIVE &&
		    sm_scenario_uses(scn, SM_ACT_MUNMAP)) {
			if (!p->o.json)
				fprintf(stderr, "selfmon: skipping %s: the native engine "
				        "cannot unmap the page (munmap)\n", p->scn_name[si]);
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

/* One cell on the worker's session *sp (made at its first cell, kept
 * for the next: sm_session_init() keeps the engine where it can; dropped
 * after a failed init). */
static void run_job(struct plan *p, struct job *j, struct sm_session **sp)
{
	double t0 = now();

	if (!*sp)
		*sp = sm_session_new();
	struct sm_session *s = *sp;
	if (!s || sm_session_init(s, j->scn, j->reader, p->o.engine, j->error,
	                          sizeof(j->error)) < 0) {
		sm_session_free(s);
		*sp = NULL;
		if (!j->error[0])
			snprintf(j->error, sizeof(j->error), "out of memory");
		return;
	}
	sm_explore(s, &p->o.x, &j->cell);
	/* --without stale_select took a choice the CPU has away: the rows
	 * (and a hazard's expect) were found with it, so hold the cell to
	 * none (a user's reader is still held to PASS) */
	if (j->cell.stale_left_out &&
	    (j->row || (j->reader->image && j->scn->expect >= 0)))
		j->unjudged = true;
	if (j->cell.verdict == SM_V_ERROR) /* selfmon's, not the reader's */
		snprintf(j->error, sizeof(j->error), "%s", j->cell.res.detail);
	j->seconds = now() - t0;
}

/* The progress line: "[D/N cells] R schedules, X/s, ETA E s" (the ETA
 * once a cell is done), R counted as the explorer runs them. */
static void progress(struct plan *p, double t0, bool tty)
{
	unsigned d = atomic_load(&p->done);
	double el = now() - t0;
	unsigned long runs = atomic_load(&p->runs);
	char eta[32] = "";

	if (d)
		snprintf(eta, sizeof(eta), ", ETA %.0f s",
		         el * (p->njobs - d) / d);
	fprintf(stderr, "%s[%u/%u cells] %lu schedules, %.0f/s%s, %.0f s%s",
	        tty ? "\r" : "selfmon: ", d, p->njobs, runs,
	        el > 0 ? runs / el : 0.0, eta, el, tty ? "   " : "\n");
	fflush(stderr);
}

/* Wakes the loop that watches the workers: posted by a worker that
 * exits and by the signal handler (sem_post() is async-signal-safe), so
 * that the loop ends when the last worker does, not at its next tick. */
static sem_t wake;

static void *worker(void *arg)
{
	struct plan *p = arg;
	struct sm_session *s = NULL;

	for (unsigned i; !atomic_load(&p->stop) &&
	     (i = atomic_fetch_add(&p->next, 1)) < p->njobs;) {
		run_job(p, &p->jobs[i], &s);
		p->jobs[i].finished = !p->jobs[i].cell.interrupted;
		atomic_fetch_add(&p->done, 1);
	}
	sm_session_free(s);
	atomic_fetch_add(&p->exited, 1);
	sem_post(&wake);
	return NULL;
}

/* The signal that came (SIGINT, SIGTERM), 0 before one: the handler's
 * only effect, read by the loop that watches the workers. */
static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	caught = sig;
	sem_post(&wake);
	sigaction(sig, &dfl, NULL); /* a second one ends the process */
}

#define PROGRESS_EVERY 10.0 /* s, between the lines of a non-terminal */
#define REFRESH_NS 200000000L /* the terminal's progress line, every 0.2 s */

/* Waits for a post of `wake` or REFRESH_NS, whichever comes first. */
static void wait_a_little(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += REFRESH_NS;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	while (sem_timedwait(&wake, &t) < 0 && errno == EINTR)
		;
}

void check_run_all(struct plan *p)
{
	unsigned n = p->o.jobs < p->njobs ? p->o.jobs : p->njobs;
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;

	if (n == 0)
		n = 1;
	if (n > MAX_JOBS)
		n = MAX_JOBS;
	pthread_t t[MAX_JOBS];
	bool tty = isatty(2), show = !p->o.quiet && !(tty && p->o.json);
	double t0 = now(), last = t0;

	p->o.x.progress = &p->runs;
	p->o.x.stop = &p->stop;
	sem_init(&wake, 0, 0);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	unsigned started = 0;
	while (started < n && pthread_create(&t[started], NULL, worker, p) == 0)
		started++;
	if (!started) /* no thread at all: the work is done here */
		worker(p);
	while (atomic_load(&p->exited) < started) {
		if (caught && !atomic_load(&p->stop)) {
			p->signal = caught;
			atomic_store(&p->stop, true);
		}
		if (show && tty)
			progress(p, t0, true);
		else if (show && now() - last >= PROGRESS_EVERY) {
			progress(p, t0, false);
			last = now();
		}
		wait_a_little();
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	if (caught && !p->signal) { /* in the last moment */
		p->signal = caught;
		atomic_store(&p->stop, true);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sem_destroy(&wake);
	if (show && tty)
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
int check_lines(struct plan *p)
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

void check_free_plan(struct plan *p)
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


void check_lookalikes(struct plan *p)
{
	if (p->o.engine != SM_ENGINE_UNICORN)
		return;
	for (unsigned i = 0; i < p->njobs; i++) {
		struct job *j = &p->jobs[i];
		if (j->reader->image && !j->error[0])
			j->nlooks_like = sm_lookalike(j->scn, j->scn_name,
			                              j->reader->abi, &j->cell,
			                              &j->at, j->looks_like,
			                              SM_LOOKALIKE_MAX);
	}
}
