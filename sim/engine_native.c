/*
 * engine_native.c — the reader compiled into selfmon, its primitives
 * routed to the model.
 *
 * Owns: selfmon_routed_rdpmc/rdtsc/read (what reader/prims.h calls in the
 * SELFMON_PRIMS_ROUTED build): each routed call is one step, where the
 * session moves time on, lands actions and samples the truth; the reader
 * loads the model's page directly, so kernel actions become visible only
 * at routed calls.  Faults (a #GP from the model, SIGFPE, SIGSEGV, ...)
 * and runaway loops (a CPU-time timer) end the call with a verdict.  No
 * snapshots: the explorer re-executes each schedule.  x86-64 hosts only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "explain.h"
#include "session.h"
#include "prims.h"

#define NATIVE_BUDGET 5000 /* routed calls */

static _Thread_local struct sm_session *cur;
static _Thread_local sigjmp_buf escape;
static _Thread_local volatile sig_atomic_t caught;
static _Thread_local timer_t cpu_timer;
static _Thread_local bool have_timer;

/* file:line of a code address in this binary (debug info), for
 * --explain: addr2line on the offset from the load base. */
static void source_line(const void *addr, char *out, size_t n)
{
	Dl_info info;
	char cmd[512];

	snprintf(out, n, "?");
	if (!dladdr(addr, &info) || !info.dli_fname)
		return;
	snprintf(cmd, sizeof(cmd), "addr2line -e '%s' 0x%lx 2>/dev/null",
	         info.dli_fname,
	         (unsigned long)((const char *)addr - (const char *)info.dli_fbase) -
	             1);
	FILE *f = popen(cmd, "r");
	if (!f)
		return;
	if (fgets(out, (int)n, f))
		out[strcspn(out, "\n")] = '\0';
	pclose(f);
	const char *base = strstr(out, "/reader/");
	if (base)
		memmove(out, base + 1, strlen(base));
}

static void step(const char *what, uint64_t arg, const void *caller)
{
	struct sm_session *s = cur;

	sm_session_tick(s);
	if (s->step >= NATIVE_BUDGET) {
		sm_session_budget(s);
		siglongjmp(escape, 1);
	}
	sm_session_observe(s, s->step);
	if (s->explain) {
		char line[600], src[512];
		source_line(caller, src, sizeof(src));
		snprintf(line, sizeof(line), "%s(%" PRIu64 ") at %s", what, arg, src);
		sm_explain_native(s, line);
	}
	s->step++;
}

uint64_t selfmon_routed_rdpmc(uint32_t counter)
{
	uint64_t v;

	step("rdpmc", counter, __builtin_return_address(0));
	if (sm_model_rdpmc(&cur->model, counter, &v) != SM_OK) {
		cur->res.steps = cur->step;
		sm_result_set(&cur->res, V_FAULT, "rdpmc with ECX=0x%x raised #GP",
		              counter);
		siglongjmp(escape, 1);
	}
	if (cur->explain)
		sm_explain_trap(cur, "rdpmc", counter, v);
	return v;
}

uint64_t selfmon_routed_rdtsc(void)
{
	step("rdtsc", 0, __builtin_return_address(0));
	return sm_model_timer(&cur->model);
}

long selfmon_routed_read(int fd, void *buf, size_t n)
{
	long r;

	step("read", (uint64_t)fd, __builtin_return_address(0));
	if (fd != SM_EVENT_FD)
		return -9;
	r = sm_model_read(&cur->model, 0, buf, n);
	cur->deadline = sm_model_next_activity(&cur->model);
	return r;
}

static void on_signal(int sig)
{
	caught = sig;
	siglongjmp(escape, 2);
}

/* Synchronous faults and a per-thread CPU-time timer (1 s) against loops
 * that never reach a routed call. */
static void arm(void)
{
	static const int sigs[] = { SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGALRM };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_NODEFER;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	if (!have_timer) {
		struct sigevent ev;
		memset(&ev, 0, sizeof(ev));
		ev.sigev_notify = SIGEV_THREAD_ID;
		ev.sigev_signo = SIGALRM;
		ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
		have_timer = timer_create(CLOCK_THREAD_CPUTIME_ID, &ev,
		                          &cpu_timer) == 0;
	}
	if (have_timer) {
		struct itimerspec t = { .it_value = { 1, 0 } };
		timer_settime(cpu_timer, 0, &t, NULL);
	}
}

static void disarm(void)
{
	if (have_timer) {
		struct itimerspec t = { 0 };
		timer_settime(cpu_timer, 0, &t, NULL);
	}
}

static void call(struct sm_session *s)
{
	const void *page = s->model.page[0].bytes;
	struct selfmon_values out = { 0 };
	uint64_t v[3] = { 0 };
	int rc = 0;

	switch (s->reader->abi) {
	case ABI_RAW:
		v[0] = ((selfmon_raw_fn)s->reader->native)(page);
		break;
	case ABI_SCALED:
		v[0] = ((selfmon_scaled_fn)s->reader->native)(page);
		break;
	case ABI_TIMES:
		v[0] = ((selfmon_times_fn)s->reader->native)(page, &v[1], &v[2]);
		break;
	case ABI_VALUES:
		rc = ((selfmon_values_fn)s->reader->native)(page, SM_EVENT_FD, &out);
		v[0] = out.count;
		v[1] = out.enabled;
		v[2] = out.running;
		break;
	case NABI:
		break;
	}
	disarm();
	sm_session_tick(s);
	sm_oracle_judge(s, v, rc);
}

static const char *signal_text(int sig)
{
	switch (sig) {
	case SIGFPE: return "SIGFPE (divide error)";
	case SIGSEGV: return "SIGSEGV (bad memory access)";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL (invalid instruction)";
	default: return "a signal";
	}
}

static bool n_run(struct sm_session *s, uint64_t stop)
{
	(void)stop;
	cur = s;
	caught = 0;
	arm();
	int how = sigsetjmp(escape, 1);
	if (how == 0) {
		call(s);
	} else {
		disarm();
		s->res.steps = s->step;
		if (how == 2 && caught == SIGALRM)
			sm_result_set(&s->res, V_LIVELOCK, "no result after 1 s of "
			              "CPU time (%" PRIu64 " routed calls)", s->step);
		else if (how == 2)
			sm_result_set(&s->res, V_FAULT, "%s in the reader after %"
			              PRIu64 " routed calls", signal_text(caught),
			              s->step);
	}
	cur = NULL;
	return false;
}

static int n_open(struct sm_session *s, char *err, size_t n)
{
	if (s->scn->cfg.arch != SM_X86_64 || !s->reader->native) {
		snprintf(err, n, "the native engine runs x86_64 built-in readers "
		         "only");
		return -1;
	}
	return 0;
}

static void n_close(struct sm_session *s)
{
	(void)s;
}

const struct sm_engine_ops sm_engine_native = {
	.open = n_open, .close = n_close, .begin = sm_session_start, .run = n_run,
};
