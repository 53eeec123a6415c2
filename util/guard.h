/*
 * guard.h — running code that may fault or never return (a reader under
 * test) without taking selfmon down: synchronous fault signals and a
 * per-thread CPU-time limit end the call.
 */
#ifndef SELFMON_GUARD_H
#define SELFMON_GUARD_H

typedef void (*sm_guarded_fn)(void *arg);

/* fn(arg) under guard: 0 when it returned; the signal number (SIGFPE,
 * SIGSEGV, SIGBUS, SIGILL) when a fault ended it; SIGALRM when it used
 * more than cpu_ms of CPU time; the code given to sm_guard_escape(). */
int sm_guard_run(sm_guarded_fn fn, void *arg, unsigned cpu_ms);
/* The timer stays armed after a call (an alarm between calls is
 * ignored): disarm it when this thread's calls are over. */
void sm_guard_end(void);
/* Leave the guarded call from inside it (code >= 1000). */
_Noreturn void sm_guard_escape(int code);
const char *sm_guard_signal_text(int sig);

#endif
