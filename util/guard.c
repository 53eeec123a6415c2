/*
 * guard.c — see guard.h.  One guarded call per thread at a time; the
 * timer is the thread's own CPU clock, so other threads are not touched.
 * A guarded call costs one system call (arming the timer; #44 lever 1).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "guard.h"

static _Thread_local sigjmp_buf escape;
static _Thread_local volatile sig_atomic_t caught;
static _Thread_local timer_t cpu_timer;
static _Thread_local int have_timer; /* 0 not tried, 1 yes, -1 failed */

static _Thread_local volatile sig_atomic_t in_call; /* fn runs */

/* In a guarded call: leave it.  Outside one: a CPU-time alarm of a timer
 * left armed (sm_guard_run() does not disarm) is ignored; a fault is
 * selfmon's own, and takes the default action when the instruction
 * runs again. */
static void on_signal(int sig)
{
	if (!in_call) {
		if (sig != SIGALRM)
			signal(sig, SIG_DFL);
		return;
	}
	caught = sig;
	siglongjmp(escape, sig);
}

static void arm(unsigned cpu_ms)
{
	static const int sigs[] = { SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGALRM };
	struct sigaction sa;

	if (!have_timer) { /* once per thread: handlers and the timer */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		/* no mask change (the escape need not restore one), and a call
		 * an ignored alarm interrupts goes on */
		sa.sa_flags = SA_NODEFER | SA_RESTART;
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaction(sigs[i], &sa, NULL);
		struct sigevent ev;
		memset(&ev, 0, sizeof(ev));
		ev.sigev_notify = SIGEV_THREAD_ID;
		ev.sigev_signo = SIGALRM;
		ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
		have_timer = timer_create(CLOCK_THREAD_CPUTIME_ID, &ev,
		                          &cpu_timer) == 0 ? 1 : -1;
	}
	if (!cpu_ms)
		cpu_ms = 1; /* an it_value of 0 would disarm it */
	if (have_timer > 0) {
		/* and again every 10 ms after: an expiry in the instants between
		 * this and the call's start is ignored (on_signal()), and the
		 * next one stops the call */
		struct itimerspec t = {
			.it_value = { cpu_ms / 1000, (long)(cpu_ms % 1000) * 1000000 },
			.it_interval = { 0, 10 * 1000000 },
		};
		timer_settime(cpu_timer, 0, &t, NULL);
	}
}

void sm_guard_end(void)
{
	if (have_timer > 0) {
		struct itimerspec t = { 0 };
		timer_settime(cpu_timer, 0, &t, NULL);
	}
}

int sm_guard_run(sm_guarded_fn fn, void *arg, unsigned cpu_ms)
{
	caught = 0;
	arm(cpu_ms);
	/* one syscall a call (the timer's): the handlers leave the signal
	 * mask alone (SA_NODEFER, an empty sa_mask), so the escape saves
	 * none, and the timer is not disarmed after (sm_guard_end()) */
	int how = sigsetjmp(escape, 0);
	if (how == 0) {
		in_call = 1;
		fn(arg);
	}
	in_call = 0;
	return how;
}

_Noreturn void sm_guard_escape(int code)
{
	siglongjmp(escape, code);
}

const char *sm_guard_signal_text(int sig)
{
	switch (sig) {
	case SIGFPE: return "SIGFPE (divide error)";
	case SIGSEGV: return "SIGSEGV (bad memory access)";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL (invalid instruction)";
	case SIGALRM: return "no return within its CPU time";
	default: return "a signal";
	}
}
