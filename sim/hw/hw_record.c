/*
 * hw_record.c — the recorder of `selfmon hw record` (see hw_record.h).
 *
 * Owns: the events of this thread opened and mmapped with no context
 * switch among the opens; a second thread that polls every page tightly
 * and logs each change with its lock value; the script the recorded
 * thread runs (work, read, reset, disable and enable one event at a time,
 * migrate), logging each action after a mark: every page as the recorded
 * thread read it, with its context-switch count.  Must not parse traces,
 * touch the model or write files: hw_trace.c formats each record and
 * writes the trace, the command opens the output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw_record.h"

#define MAX_EV HW_TRACE_MAX_EVENTS

/* ---- the log --------------------------------------------------------- */

/* Add a record (text from hw_trace_*_text(), NULL when that ran out of
 * memory: then the recording fails). */
static void log_add(struct hw_recorder *rc, uint64_t t, char *text)
{
	pthread_mutex_lock(&rc->mu);
	if (text && rc->n == rc->cap) {
		size_t cap = rc->cap ? 2 * rc->cap : 1024;
		struct hw_trace_rec *r = realloc(rc->r, cap * sizeof(*r));
		if (r) {
			rc->r = r;
			rc->cap = cap;
		}
	}
	if (!text || rc->n == rc->cap) {
		rc->oom = true;
		free(text);
	} else {
		rc->r[rc->n] = (struct hw_trace_rec){ t, rc->n, text };
		rc->n++;
	}
	pthread_mutex_unlock(&rc->mu);
}

/* kind "page": a change the poller saw (it may lag the kernel's write);
 * "mark": the page as the recorded thread itself read it at a mark. */
static void log_page(struct hw_recorder *rc, uint64_t t, const char *kind,
                     unsigned i, const struct perf_event_mmap_page *p)
{
	log_add(rc, t, hw_trace_page_text(kind, rc->ev[i].name, p));
}

static void log_switches(struct hw_recorder *rc, uint64_t t,
                         const char *when, long n)
{
	log_add(rc, t, hw_trace_switches_text(when, n));
}

/* ---- the poller ------------------------------------------------------ */

static void *poller(void *arg)
{
	struct hw_recorder *rc = arg;
	struct perf_event_mmap_page last[MAX_EV], p;
	int ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN), avoid = -1;

	memset(last, 0xff, sizeof(last));
	while (!atomic_load(&rc->stop)) {
		/* off the recorded thread's CPU, so as not to switch it out */
		int cpu = atomic_load(&rc->main_cpu);
		if (ncpus > 1 && cpu != avoid) {
			hw_migrate(cpu == 0 ? 1 : 0);
			avoid = cpu;
		}
		for (unsigned i = 0; i < rc->nev; i++)
			if (hw_snapshot(rc->ev[i].pc, &p) &&
			    memcmp(&p, &last[i], offsetof(struct perf_event_mmap_page,
			                                  __reserved))) {
				log_page(rc, hw_now_ns() - rc->t0, "page", i, &p);
				last[i] = p;
			}
	}
	return NULL;
}

/* ---- the script ------------------------------------------------------ */

static void busy(uint64_t ns)
{
	volatile uint64_t x = 0;
	uint64_t end = hw_now_ns() + ns;
	while (hw_now_ns() < end)
		for (int i = 0; i < 1000; i++)
			x = x + (uint64_t)i; /* (clang: a volatile's += is "unused") */
}

/* Open and mmap every event with no context switch in between: a switch
 * after one event's mmap and before the last one's would update only the
 * pages already mapped, which no baseline can express. Under load this
 * takes a few tries; after 100 the recording goes ahead regardless.
 * Returns the index of an event that cannot be opened, or -1. */
static int open_all(struct hw_recorder *rc)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		long before = hw_thread_switches();
		for (unsigned i = 0; i < rc->nev; i++)
			if (hw_open(&rc->ev[i]) < 0) {
				for (unsigned j = 0; j < i; j++)
					hw_close(&rc->ev[j]);
				return (int)i;
			}
		if (hw_thread_switches() == before || attempt == 99)
			return -1;
		for (unsigned i = 0; i < rc->nev; i++)
			hw_close(&rc->ev[i]);
	}
	return -1;
}

/* One action of the script, done by the recorded thread. */
static void do_read(struct hw_recorder *rc, int ev, int cpu)
{
	(void)ev, (void)cpu;
	for (unsigned i = 0; i < rc->nev; i++)
		rc->readok[i] = hw_read(&rc->ev[i], rc->readv[i]) == 0;
}

static void do_reset(struct hw_recorder *rc, int ev, int cpu)
{
	(void)cpu;
	hw_reset(&rc->ev[ev]);
}

static void do_disable(struct hw_recorder *rc, int ev, int cpu)
{
	(void)cpu;
	hw_disable(&rc->ev[ev]);
}

static void do_enable(struct hw_recorder *rc, int ev, int cpu)
{
	(void)cpu;
	hw_enable(&rc->ev[ev]);
}

static void do_migrate(struct hw_recorder *rc, int ev, int cpu)
{
	(void)rc, (void)ev;
	hw_migrate(cpu);
}

static void do_nothing(struct hw_recorder *rc, int ev, int cpu)
{
	(void)rc, (void)ev, (void)cpu;
}

typedef void action_fn(struct hw_recorder *rc, int ev, int cpu);

/* Every page as this thread reads it, taken again while a switch slips
 * in; the switch count it goes with in *n, its time in *t. */
static bool mark(struct hw_recorder *rc, struct perf_event_mmap_page p[],
                 long *n, uint64_t *t)
{
	bool ok = false;

	for (int tries = 0; tries < 100 && !ok; tries++) {
		*n = hw_thread_switches();
		ok = true;
		for (unsigned i = 0; i < rc->nev; i++)
			ok = hw_snapshot(rc->ev[i].pc, &p[i]) && ok;
		*t = hw_now_ns() - rc->t0;
		ok = ok && hw_thread_switches() == *n;
	}
	return ok;
}

static void log_action(struct hw_recorder *rc, uint64_t t, const char *what,
                       action_fn *fn, int ev, int cpu)
{
	log_add(rc, t, hw_trace_action_text(what, ev >= 0 ? rc->ev[ev].name
	                                              : NULL, cpu));
	for (unsigned i = 0; fn == do_read && i < rc->nev; i++)
		if (rc->readok[i])
			log_add(rc, t, hw_trace_read_text(rc->ev[i].name,
			                                  rc->readv[i]));
}

/* Mark, act, and log both. The mark is every page as this thread reads
 * it, with the switch count it goes with (the poller can be descheduled
 * under load and log a change late; a mark cannot), and the action
 * follows at once: a switch between the two is counted with the action,
 * where the comparison tries it on either side. */
static void act(struct hw_recorder *rc, const char *what, action_fn *fn,
                int ev, int cpu)
{
	struct perf_event_mmap_page p[MAX_EV];
	long n = 0;
	uint64_t t = 0;
	bool ok = mark(rc, p, &n, &t);

	fn(rc, ev, cpu);
	long after = hw_thread_switches();
	uint64_t t_after = hw_now_ns() - rc->t0;
	for (unsigned i = 0; ok && i < rc->nev; i++)
		log_page(rc, t, "mark", i, &p[i]);
	log_switches(rc, t, "before", n);
	if (fn == do_nothing)
		return;
	log_action(rc, t, what, fn, ev, cpu);
	log_switches(rc, t_after, "after", after);
}

/* The recorder's script: work, read, reset, disable, enable, migrate. */
static void script(struct hw_recorder *rc, uint64_t step_ns)
{
	int ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);

	busy(step_ns);
	act(rc, "read", do_read, -1, -1);
	busy(step_ns);
	act(rc, "reset", do_reset, 0, -1);
	busy(step_ns);
	/* one event an action: a switch inside one ioctl is the only one
	 * whose order against the action the trace cannot tell */
	for (unsigned i = 0; i < rc->nev; i++)
		act(rc, "disable", do_disable, (int)i, -1);
	busy(step_ns);
	for (unsigned i = 0; i < rc->nev; i++)
		act(rc, "enable", do_enable, (int)i, -1);
	busy(step_ns);
	for (int cpu = 1; ncpus > 1 && cpu >= 0; cpu--) {
		atomic_store(&rc->main_cpu, cpu);
		busy(1000000); /* the poller moves off the target CPU first */
		act(rc, "migrate", do_migrate, -1, cpu);
		busy(step_ns);
	}
	act(rc, "read", do_read, -1, -1);
	busy(step_ns);
	act(rc, "end", do_nothing, -1, -1);
	busy(2000000);           /* the poller sees the last updates */
}

/* ---- the recording --------------------------------------------------- */

/* The events of a comma-separated list. */
static int lookup_events(struct hw_recorder *rc, const char *events,
                         char *err, size_t errlen)
{
	char *list = strdup(events), *save = NULL;

	if (!list)
		return snprintf(err, errlen, "out of memory"), -1;
	for (char *e = strtok_r(list, ",", &save); e;
	     e = strtok_r(NULL, ",", &save))
		if (rc->nev == MAX_EV || !hw_lookup(e, &rc->ev[rc->nev++])) {
			snprintf(err, errlen, "unknown or too many events at '%s'", e);
			free(list);
			return -1;
		}
	free(list);
	return 0;
}

int hw_record(struct hw_recorder *rc, const char *events, unsigned long ms,
              char *err, size_t errlen)
{
	memset(rc, 0, sizeof(*rc));
	for (unsigned i = 0; i < MAX_EV; i++)
		rc->ev[i].fd = -1;
	pthread_mutex_init(&rc->mu, NULL);
	hw_migrate(0); /* before the events exist: the move touches no page */
	rc->t0 = hw_now_ns();
	if (lookup_events(rc, events, err, errlen) < 0)
		return -1;
	int bad = open_all(rc);
	if (bad >= 0)
		return snprintf(err, errlen, "cannot open %s: %s", rc->ev[bad].name,
		                strerror(-rc->ev[bad].err)), -1;
	/* The baseline: earlier switches touched no page (the events did not
	 * exist yet), and open_all() let none happen among the opens. */
	log_switches(rc, hw_now_ns() - rc->t0, "open", hw_thread_switches());
	pthread_t th;
	int e = pthread_create(&th, NULL, poller, rc);
	if (e)
		return snprintf(err, errlen, "cannot start the poller thread: %s",
		                strerror(e)), -1;
	busy(2000000); /* the poller sees the pages as mmap left them */
	script(rc, ms * 1000000ull / 10);
	atomic_store(&rc->stop, true);
	pthread_join(th, NULL);
	if (rc->oom)
		return snprintf(err, errlen, "out of memory for the records"), -1;
	return 0;
}

void hw_record_free(struct hw_recorder *rc)
{
	for (unsigned i = 0; i < rc->nev; i++)
		hw_close(&rc->ev[i]);
	for (size_t k = 0; k < rc->n; k++)
		free(rc->r[k].text);
	free(rc->r);
	rc->r = NULL;
	rc->n = rc->cap = 0;
	pthread_mutex_destroy(&rc->mu);
}
