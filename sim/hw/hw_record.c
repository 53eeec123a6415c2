/*
 * hw_record.c — `selfmon hw record` and `selfmon model --compare`: what the
 * real kernel writes to the pages, recorded, and the model held against it.
 *
 * Owns: the recorder (events of this thread opened and mmapped; a second
 * thread polls every page tightly and logs each change with its lock
 * value; the main thread works, reads, resets, disables, enables and
 * migrates, logging each action after a mark: every page as the main
 * thread read it, with its context-switch count), the trace format (text,
 * one record a line, written whole or not at all), and the comparison:
 * the model is driven with the recorded actions and switches and, after
 * each action, the page fields the model decides without a clock (lock,
 * index, capabilities, pmc_width, size, and offset right after a reset)
 * are compared with the mark before the next action.  A trace is input
 * like any other: a regular file within SM_TRACE_MAX_BYTES, every line a
 * known, printable record, and the work it asks for capped (hw.h: actions,
 * switches a line may add, preemptions replayed); a cap hit is one line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "commands.h"
#include "hw.h"
#include "input.h"
#include "model.h"
#include "outfile.h"

#define MAX_EV 8

/* ---- the log --------------------------------------------------------- */

struct rec {
	uint64_t t;
	size_t seq;   /* order of logging: ties in t keep it */
	char text[480];
};

struct log {
	pthread_mutex_t mu;
	struct rec *r;
	size_t n, cap;
};

static void logf_(struct log *l, uint64_t t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void logf_(struct log *l, uint64_t t, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&l->mu);
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		struct rec *r = realloc(l->r, cap * sizeof(*r));
		if (!r) {
			pthread_mutex_unlock(&l->mu);
			return;
		}
		l->r = r;
		l->cap = cap;
	}
	struct rec *r = &l->r[l->n++];
	r->t = t;
	r->seq = l->n - 1;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&l->mu);
}

/* ---- the recorder ---------------------------------------------------- */

struct recorder {
	struct hw_event ev[MAX_EV];
	unsigned nev;
	struct log log;
	atomic_bool stop;
	atomic_int main_cpu;   /* the recorded thread's CPU: the poller keeps off */
	uint64_t readv[MAX_EV][3]; /* what the read action got, logged after */
	bool readok[MAX_EV];
	uint64_t t0;
};

/* kind "page": a change the poller saw (it may lag the kernel's write);
 * "mark": the page as the recorded thread itself read it at a mark. */
static void log_page(struct recorder *rc, uint64_t t, const char *kind,
                     unsigned i, const struct perf_event_mmap_page *p)
{
	logf_(&rc->log, t,
	      "%s %s lock=%u index=%u offset=%" PRId64 " time_enabled=%" PRIu64
	      " time_running=%" PRIu64 " capabilities=%" PRIu64 " pmc_width=%u"
	      " time_shift=%u time_mult=%u time_offset=%" PRIu64 " time_zero=%"
	      PRIu64 " size=%u time_cycles=%" PRIu64 " time_mask=%" PRIu64,
	      kind, rc->ev[i].name, p->lock, p->index, (int64_t)p->offset,
	      (uint64_t)p->time_enabled, (uint64_t)p->time_running,
	      (uint64_t)p->capabilities, p->pmc_width, p->time_shift,
	      p->time_mult, (uint64_t)p->time_offset, (uint64_t)p->time_zero,
	      p->size, (uint64_t)p->time_cycles, (uint64_t)p->time_mask);
}

static void *poller(void *arg)
{
	struct recorder *rc = arg;
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

static void busy(uint64_t ns)
{
	volatile uint64_t x = 0;
	uint64_t end = hw_now_ns() + ns;
	while (hw_now_ns() < end)
		for (int i = 0; i < 1000; i++)
			x = x + (uint64_t)i; /* (clang: a volatile's += is "unused") */
}

/* Context switches of this thread so far (each one schedules its events
 * out and in again). */
static long thread_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nvcsw + ru.ru_nivcsw
	                                          : -1;
}

static void switches(struct recorder *rc, const char *when)
{
	logf_(&rc->log, hw_now_ns() - rc->t0, "switches %s count=%ld", when,
	      thread_switches());
}

/* Open and mmap every event with no context switch in between: a switch
 * after one event's mmap and before the last one's would update only the
 * pages already mapped, which no baseline can express. Under load this
 * takes a few tries; after 100 the recording goes ahead regardless.
 * Returns the index of an event that cannot be opened, or -1. */
static int open_all(struct recorder *rc)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		long before = thread_switches();
		for (unsigned i = 0; i < rc->nev; i++)
			if (hw_open(&rc->ev[i]) < 0) {
				for (unsigned j = 0; j < i; j++)
					hw_close(&rc->ev[j]);
				return (int)i;
			}
		if (thread_switches() == before || attempt == 99)
			return -1;
		for (unsigned i = 0; i < rc->nev; i++)
			hw_close(&rc->ev[i]);
	}
	return -1;
}

/* One action of the script, done by the recorded thread. */
static void do_read(struct recorder *rc, int ev, int cpu)
{
	(void)ev, (void)cpu;
	for (unsigned i = 0; i < rc->nev; i++)
		rc->readok[i] = hw_read(&rc->ev[i], rc->readv[i]) == 0;
}

static void do_reset(struct recorder *rc, int ev, int cpu)
{
	(void)cpu;
	ioctl(rc->ev[ev].fd, PERF_EVENT_IOC_RESET, 0);
}

static void do_disable(struct recorder *rc, int ev, int cpu)
{
	(void)cpu;
	ioctl(rc->ev[ev].fd, PERF_EVENT_IOC_DISABLE, 0);
}

static void do_enable(struct recorder *rc, int ev, int cpu)
{
	(void)cpu;
	ioctl(rc->ev[ev].fd, PERF_EVENT_IOC_ENABLE, 0);
}

static void do_migrate(struct recorder *rc, int ev, int cpu)
{
	(void)rc, (void)ev;
	hw_migrate(cpu);
}

static void do_nothing(struct recorder *rc, int ev, int cpu)
{
	(void)rc, (void)ev, (void)cpu;
}

typedef void action_fn(struct recorder *rc, int ev, int cpu);

/* Mark, act, and log both. The mark is every page as this thread reads
 * it, with the switch count it goes with (the poller can be descheduled
 * under load and log a change late; a mark cannot), taken again while a
 * switch slips in, and the action follows at once: a switch between the
 * two is counted with the action, where the comparison tries it on either
 * side. */
static void act(struct recorder *rc, const char *what, action_fn *fn,
                int ev, int cpu)
{
	struct perf_event_mmap_page p[MAX_EV];
	long n = 0;
	bool ok = false;
	uint64_t t = 0;

	for (int tries = 0; tries < 100 && !ok; tries++) {
		n = thread_switches();
		ok = true;
		for (unsigned i = 0; i < rc->nev; i++)
			ok = hw_snapshot(rc->ev[i].pc, &p[i]) && ok;
		t = hw_now_ns() - rc->t0;
		ok = ok && thread_switches() == n;
	}
	fn(rc, ev, cpu);
	long after = thread_switches();
	uint64_t t_after = hw_now_ns() - rc->t0;
	for (unsigned i = 0; ok && i < rc->nev; i++)
		log_page(rc, t, "mark", i, &p[i]);
	logf_(&rc->log, t, "switches before count=%ld", n);
	if (fn == do_nothing)
		return;
	if (ev >= 0)
		logf_(&rc->log, t, "action %s event=%s", what, rc->ev[ev].name);
	else if (cpu >= 0)
		logf_(&rc->log, t, "action %s cpu=%d", what, cpu);
	else
		logf_(&rc->log, t, "action %s", what);
	for (unsigned i = 0; fn == do_read && i < rc->nev; i++)
		if (rc->readok[i])
			logf_(&rc->log, t, "read %s count=%" PRIu64 " enabled=%" PRIu64
			      " running=%" PRIu64, rc->ev[i].name, rc->readv[i][0],
			      rc->readv[i][1], rc->readv[i][2]);
	logf_(&rc->log, t_after, "switches after count=%ld", after);
}

/* The recorder's script: work, read, reset, disable, enable, migrate. */
static void script(struct recorder *rc, uint64_t step_ns)
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

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int write_trace(struct recorder *rc, const char *out)
{
	struct sm_out o;
	char err[256];

	if (sm_out_open(&o, out, err, sizeof(err)) < 0)
		return usage_error("hw record: %s: %s", out, err);
	FILE *f = o.f;
	qsort(rc->log.r, rc->log.n, sizeof(rc->log.r[0]), cmp_rec);
	fprintf(f, "# selfmon hw trace: compare with 'selfmon model --compare "
	        "%s'\narch %s\ncpus %ld\n", out,
#if defined(__x86_64__)
	        "x86_64",
#elif defined(__aarch64__)
	        "arm64",
#else
	        "riscv64",
#endif
	        sysconf(_SC_NPROCESSORS_ONLN));
	for (unsigned i = 0; i < rc->nev; i++)
		fprintf(f, "event %s%s\n", rc->ev[i].name,
		        rc->ev[i].software ? " software" : "");
	for (size_t k = 0; k < rc->log.n; k++)
		fprintf(f, "at %" PRIu64 " %s\n", rc->log.r[k].t, rc->log.r[k].text);
	if (sm_out_close(&o, err, sizeof(err)) < 0)
		return usage_error("hw record: %s: %s", out, err);
	return 0;
}

int cmd_hw_record(int argc, char **argv)
{
	static struct recorder rc;
	const char *out = NULL;
	char events[256] = "task-clock,page-faults,cpu-clock";
	unsigned long ms = 200;

	for (int i = 0; i < argc; i++) {
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(argv[i], "--out") && val)
			out = argv[++i];
		else if (!strcmp(argv[i], "--events") && val)
			snprintf(events, sizeof(events), "%s", argv[++i]);
		else if (!strcmp(argv[i], "--duration") && val) {
			char *end;
			ms = strtoul(argv[++i], &end, 10);
			if (*end || ms < 10 || ms > 600000)
				return usage_error("hw record: --duration needs 10..600000 "
				                   "(ms)");
		} else
			return usage_error("hw record: unexpected '%s' (see 'selfmon hw "
			                   "--help')", argv[i]);
	}
	if (!out)
		return usage_error("hw record: missing --out FILE");
	memset(&rc, 0, sizeof(rc));
	pthread_mutex_init(&rc.log.mu, NULL);
	hw_migrate(0); /* before the events exist: the move touches no page */
	rc.t0 = hw_now_ns();
	for (char *save = NULL, *e = strtok_r(events, ",", &save); e;
	     e = strtok_r(NULL, ",", &save))
		if (rc.nev == MAX_EV || !hw_lookup(e, &rc.ev[rc.nev++]))
			return usage_error("hw record: unknown or too many events at "
			                   "'%s'", e);
	int bad = open_all(&rc);
	if (bad >= 0)
		return usage_error("hw record: cannot open %s: %s", rc.ev[bad].name,
		                   strerror(-rc.ev[bad].err));
	/* The baseline: earlier switches touched no page (the events did not
	 * exist yet), and open_all() let none happen among the opens. */
	switches(&rc, "open");
	pthread_t th;
	pthread_create(&th, NULL, poller, &rc);
	busy(2000000); /* the poller sees the pages as mmap left them */
	script(&rc, ms * 1000000ull / 10);
	atomic_store(&rc.stop, true);
	pthread_join(th, NULL);
	int r = write_trace(&rc, out);
	for (unsigned i = 0; i < rc.nev; i++)
		hw_close(&rc.ev[i]);
	free(rc.log.r);
	if (r == 0)
		printf("recorded %zu records of %u events to %s\n", rc.log.n, rc.nev,
		       out);
	return r;
}

/* ---- the comparison -------------------------------------------------- */

struct trace_line {
	uint64_t t;
	unsigned line;
	char kind[16];   /* page, action, read */
	char what[32];   /* the event (page, read) or the action */
	char rest[480];
};

struct trace {
	const char *name;
	enum sm_arch arch;
	unsigned ncpus, nev;
	char ev[MAX_EV][SM_NAME_MAX];
	bool software[MAX_EV];
	struct trace_line *l;
	size_t n;
	size_t *next_action;     /* index of the first action after line k */
	uint64_t replayed;       /* preemptions replayed so far */
	size_t mark_upto;        /* last_page()'s cache: lines scanned ... */
	long last_mark[MAX_EV];  /* ... and each event's last mark in them */
	bool capped;             /* a cap was hit: the message is in err */
	char err[256];
};

#define TRACE_LINE_MAX 600
#define STR_(x) #x
#define STR(x) STR_(x)
#define EVENT_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"

static bool field(const char *rest, const char *key, uint64_t *v)
{
	char pat[40];
	snprintf(pat, sizeof(pat), " %s=", key);
	const char *p = strstr(rest, pat);
	if (!p && !strncmp(rest, pat + 1, strlen(pat) - 1))
		p = rest - 1;
	if (!p)
		return false;
	*v = strtoull(p + strlen(pat), NULL, 0);
	return true;
}

/* The event an action line names ("" if event= is empty), or NULL if it
 * names none. */
static const char *action_event(const char *rest, char name[SM_NAME_MAX])
{
	const char *ev = strstr(rest, " event=");

	if (!ev)
		return NULL;
	ev += 7;
	size_t k = strcspn(ev, " ");
	snprintf(name, SM_NAME_MAX, "%.*s", (int)(k < SM_NAME_MAX ? k : 0), ev);
	return name;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n < SM_NAME_MAX && strspn(s, EVENT_CHARS) == n;
}

static int event_index(const struct trace *t, const char *name);

static int trace_fail(struct trace *t, char *err, size_t n, unsigned line,
                      const char *why)
{
	free(t->l);
	t->l = NULL;
	if (line)
		snprintf(err, n, "%s:%u: %s", t->name, line, why);
	else
		snprintf(err, n, "%s: %s", t->name, why);
	return -1;
}

/* The trace's lines (text as the recorder writes it), checked: every line
 * a known record, printable, at most TRACE_LINE_MAX - 1 bytes, event names of
 * the trace's own events, at most SM_TRACE_MAX_ACTIONS actions. */
static int parse_trace(const char *name, const char *text, struct trace *t,
                       char *err, size_t n)
{
	char buf[TRACE_LINE_MAX];
	unsigned line = 0, actions = 0;
	size_t cap = 0;

	memset(t, 0, sizeof(*t));
	t->name = name;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		line++;
		if (len >= sizeof(buf))
			return trace_fail(t, err, n, line, "line too long for a "
			                  "selfmon hw trace");
		memcpy(buf, p, len);
		buf[len] = '\0';
		p += len + (p[len] == '\n');
		if (len && buf[len - 1] == '\r')
			buf[--len] = '\0';
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
				return trace_fail(t, err, n, line, "control character in "
				                  "a trace line");
		char a[32] = "", b[32] = "";
		if (buf[0] == '#' || !buf[0])
			continue;
		if (sscanf(buf, "arch %31s", a) == 1 && !strncmp(buf, "arch ", 5)) {
			int arch = sm_arch_from_name(a);
			if (arch < 0)
				goto bad;
			t->arch = (enum sm_arch)arch;
		} else if (sscanf(buf, "cpus %u", &t->ncpus) == 1) {
		} else if (!strncmp(buf, "event ", 6) &&
		           sscanf(buf, "event %31s %31s", a, b) >= 1) {
			if (t->nev == MAX_EV)
				return trace_fail(t, err, n, line, "too many events (max 8)");
			if (!valid_name(a) || event_index(t, a) >= 0)
				return trace_fail(t, err, n, line, "bad or duplicate event "
				                  "name");
			snprintf(t->ev[t->nev], SM_NAME_MAX, "%s", a);
			t->software[t->nev++] = !strcmp(b, "software");
		} else if (!strncmp(buf, "at ", 3)) {
			if (t->n == cap) {
				cap = cap ? 2 * cap : 256;
				struct trace_line *l = realloc(t->l, cap * sizeof(*l));
				if (!l)
					return trace_fail(t, err, n, line, "out of memory");
				t->l = l;
			}
			struct trace_line *l = &t->l[t->n];
			char ename[SM_NAME_MAX];
			int used = 0;
			if (sscanf(buf, "at %" SCNu64 " %15s %31s %n", &l->t, l->kind,
			           l->what, &used) < 3)
				goto bad;
			snprintf(l->rest, sizeof(l->rest), " %s", buf + used);
			l->line = line;
			bool is_action = !strcmp(l->kind, "action");
			if (is_action && ++actions > SM_TRACE_MAX_ACTIONS)
				return trace_fail(t, err, n, line, "more actions than the "
				                  "cap of " STR(SM_TRACE_MAX_ACTIONS)
				                  " per trace");
			if (is_action && action_event(l->rest, ename) &&
			    event_index(t, ename) < 0)
				return trace_fail(t, err, n, line, "the action names no "
				                  "event of the trace");
			t->n++;
		} else {
			goto bad;
		}
	}
	size_t marks = 0;
	for (size_t k = 0; k < t->n; k++)
		marks += !strcmp(t->l[k].kind, "mark");
	if (!t->nev || !marks)
		return trace_fail(t, err, n, 0, t->nev ? "no marks (the pages as "
		                  "the recorded thread read them): record it again "
		                  "with 'selfmon hw record'" : "no events in the "
		                  "trace");
	/* the first action after each line, found once */
	t->next_action = malloc((t->n + 1) * sizeof(size_t));
	if (!t->next_action)
		return trace_fail(t, err, n, 0, "out of memory");
	t->next_action[t->n] = t->n;
	for (size_t k = t->n; k-- > 0;)
		t->next_action[k] = !strcmp(t->l[k].kind, "action")
		                    ? k : t->next_action[k + 1];
	for (unsigned i = 0; i < MAX_EV; i++)
		t->last_mark[i] = -1;
	return 0;
bad:
	return trace_fail(t, err, n, line, "not a selfmon hw trace line");
}

static void free_trace(struct trace *t)
{
	free(t->l);
	free(t->next_action);
	t->l = NULL;
	t->next_action = NULL;
}

static int event_index(const struct trace *t, const char *name)
{
	for (unsigned i = 0; i < t->nev; i++)
		if (!strcmp(t->ev[i], name))
			return (int)i;
	return -1;
}

static enum sm_event_type type_of(const char *name, bool software)
{
	if (software)
		return SM_EV_SOFTWARE;
	if (!strcmp(name, "instructions"))
		return SM_EV_INSTRUCTIONS;
	if (!strcmp(name, "cycles"))
		return SM_EV_CYCLES;
	if (!strcmp(name, "ref-cycles"))
		return SM_EV_REF_CYCLES;
	return SM_EV_OTHER;
}

/* The model for the trace: its arch and CPUs, its events (enabled and
 * mmapped at the start, as the recorder opens them), and the two facts
 * of the machine the first pages tell: whether the clock gives user time
 * (cap_user_time) and the PMU's counter width (0 without a PMU). */
static int build_model(const struct trace *t, struct sm_model *m, char *err,
                       size_t n)
{
	static struct sm_config c;
	uint64_t caps = 0, width = 48;

	sm_config_default(&c, t->arch);
	c.ncpus = t->ncpus >= 1 && t->ncpus <= SM_MAX_CPUS ? t->ncpus : 2;
	for (size_t k = 0; k < t->n; k++)
		if (!strcmp(t->l[k].kind, "mark")) { /* load_trace: one at least */
			field(t->l[k].rest, "capabilities", &caps);
			field(t->l[k].rest, "pmc_width", &width);
			break;
		}
	c.stable = (caps >> SELFMON_CAP_USER_TIME) & 1;
	c.width = (unsigned)width;
	for (unsigned i = 0; i < t->nev; i++) {
		struct sm_event_cfg *e = &c.event[c.nevents++];
		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%s", t->ev[i]);
		e->type = type_of(t->ev[i], t->software[i]);
		e->counter = SM_AUTO;
		e->enabled = e->mmap = e->user = true;
		e->rate = 1;
	}
	return sm_model_init(m, &c, NULL, NULL, err, n);
}

struct checked {
	const char *name;
	size_t off;
};

static const struct checked checked[] = {
	{ "lock", offsetof(struct perf_event_mmap_page, lock) },
	{ "index", offsetof(struct perf_event_mmap_page, index) },
	{ "capabilities", offsetof(struct perf_event_mmap_page, capabilities) },
	{ "pmc_width", offsetof(struct perf_event_mmap_page, pmc_width) },
	{ "size", offsetof(struct perf_event_mmap_page, size) },
};

/* The last mark of event i at or before trace entry `upto`: the page as
 * the recorded thread read it before an action (the poller's own log can
 * lag the kernel's writes under load, so it is not compared).  The
 * comparison asks with `upto` never decreasing: the lines are scanned
 * once. */
static const struct trace_line *last_page(struct trace *t, int i,
                                          size_t upto)
{
	if (upto + 1 < t->mark_upto) { /* not the comparison's order: scan */
		for (size_t k = upto + 1; k-- > 0;)
			if (!strcmp(t->l[k].kind, "mark") &&
			    event_index(t, t->l[k].what) == i)
				return &t->l[k];
		return NULL;
	}
	for (; t->mark_upto <= upto && t->mark_upto < t->n; t->mark_upto++) {
		const struct trace_line *l = &t->l[t->mark_upto];
		int e = strcmp(l->kind, "mark") ? -1 : event_index(t, l->what);
		if (e >= 0)
			t->last_mark[e] = (long)t->mark_upto;
	}
	return t->last_mark[i] >= 0 ? &t->l[t->last_mark[i]] : NULL;
}

static unsigned compare_at(struct trace *t, const struct sm_model *m,
                           size_t upto, const char *after,
                           const bool after_reset[], FILE *out)
{
	unsigned diffs = 0;

	for (unsigned i = 0; i < t->nev; i++) {
		const struct trace_line *p = last_page(t, (int)i, upto);
		const struct selfmon_page_field *pf;
		if (!p) {
			if (out)
				fprintf(out, "  after %s: %s has no recorded page\n", after,
				        t->ev[i]);
			diffs++;
			continue;
		}
		for (size_t k = 0; k < sizeof(checked) / sizeof(checked[0]); k++) {
			uint64_t rec, mod;
			pf = selfmon_page_field_at((unsigned)checked[k].off);
			if (!field(p->rest, checked[k].name, &rec))
				continue;
			mod = selfmon_page_get(sm_model_page(m, (int)i), pf);
			if (rec != mod && ++diffs && out)
				fprintf(out, "  after %s: %s.%s recorded %" PRIu64 " (line "
				        "%u), model %" PRIu64 "\n", after, t->ev[i],
				        checked[k].name, rec, p->line, mod);
		}
		uint64_t off;
		if (after_reset[i] && field(p->rest, "offset", &off) &&
		    (int64_t)off != sm_model_page(m, (int)i)->offset && ++diffs &&
		    out)
			fprintf(out, "  after %s: %s.offset recorded %" PRId64 ", model %"
			        PRId64 "\n", after, t->ev[i], (int64_t)off,
			        (int64_t)sm_model_page(m, (int)i)->offset);
	}
	return diffs;
}

/* The thread's context switches between two actions, each a sched out
 * and in of its events: preemptions in the model, at most
 * SM_TRACE_MAX_PREEMPTIONS for the whole trace (then t->capped). */
static void apply_switches(struct trace *t, struct sm_model *m, uint64_t n)
{
	struct sm_action a = { .kind = SM_ACT_PREEMPT, .event = SM_AUTO,
	                       .cpu = SM_AUTO, .counter = SM_AUTO, .cycles = 100 };
	char err[128];

	if (n > SM_TRACE_MAX_PREEMPTIONS - t->replayed) {
		if (!t->capped)
			snprintf(t->err, sizeof(t->err), "%s: the trace replays more "
			         "than the cap of %d context switches", t->name,
			         SM_TRACE_MAX_PREEMPTIONS);
		t->capped = true;
		n = SM_TRACE_MAX_PREEMPTIONS - t->replayed;
	}
	t->replayed += n;
	for (uint64_t k = 0; k < n; k++)
		sm_model_apply(m, &a, err, sizeof(err));
}

/* Apply one recorded action to the model. */
static void apply_action(const struct trace *t, struct sm_model *m,
                         const struct trace_line *l, bool after_reset[])
{
	struct sm_action a = { .event = SM_AUTO, .cpu = SM_AUTO,
	                       .counter = SM_AUTO, .cycles = 1000 };
	char err[128], name[SM_NAME_MAX];
	uint64_t v;
	int kind = sm_action_from_name(l->what);

	for (unsigned i = 0; i < t->nev; i++)
		after_reset[i] = false;
	if (kind < 0)
		return;
	a.kind = (enum sm_action_kind)kind;
	if (field(l->rest, "cpu", &v))
		a.cpu = v < SM_MAX_CPUS ? (int)v : SM_MAX_CPUS;
	if (action_event(l->rest, name)) { /* parse_trace: one of the trace's */
		a.event = event_index(t, name);
		if (a.event >= 0 && a.kind == SM_ACT_RESET)
			after_reset[a.event] = true;
		if (a.event >= 0)
			sm_model_apply(m, &a, err, sizeof(err));
		return;
	}
	if (a.kind == SM_ACT_MIGRATE) {
		sm_model_apply(m, &a, err, sizeof(err));
		return;
	}
	for (unsigned i = 0; i < t->nev; i++) { /* read, disable, enable: all */
		a.event = (int)i;
		sm_model_apply(m, &a, err, sizeof(err));
	}
}

/* Switches counted during an action (beyond a migration's own) may have
 * come before or after its effect inside the syscall; the trace cannot
 * tell. Each split of them is a candidate model, and the next mark picks
 * the first that agrees with it (else the first: its differences are
 * printed). */
#define MAX_CAND 4

static void split_switches(struct trace *t, const struct sm_model *pre,
                           const struct trace_line *action, uint64_t extra,
                           struct sm_model cand[], unsigned *ncand)
{
	bool scratch[MAX_EV];

	*ncand = 1; /* cand[0]: the action first, then every switch */
	for (uint64_t s = 1; s <= extra && *ncand < MAX_CAND; s++) {
		struct sm_model *c = &cand[(*ncand)++];
		*c = *pre;
		apply_switches(t, c, s);
		apply_action(t, c, action, scratch);
		apply_switches(t, c, extra - s);
	}
}

/* The switch count of a `switches` line, at most SM_TRACE_MAX_SWITCHES
 * more than the one before (`since`). */
static int switch_count(struct trace *t, const struct trace_line *l,
                        uint64_t since, uint64_t *n)
{
	if (!field(l->rest, "count", n))
		return 0;
	if (*n > since && *n - since > SM_TRACE_MAX_SWITCHES) {
		snprintf(t->err, sizeof(t->err), "%s:%u: %" PRIu64 " context "
		         "switches since the count before, over the cap of %d per "
		         "trace line", t->name, l->line, *n - since,
		         SM_TRACE_MAX_SWITCHES);
		return -1;
	}
	return 1;
}

int hw_compare_text(const char *name, const char *text, FILE *out,
                    char *err, size_t errlen)
{
	static struct trace t;
	static struct sm_model cand[MAX_CAND], pre;
	struct sm_model *m = &cand[0];
	char label[64] = "mmap";
	bool after_reset[MAX_EV] = { false };
	unsigned diffs = 0, actions = 0, ncand = 1;
	uint64_t since = 0, n;
	const struct trace_line *last_action = NULL;
	int rc = 0;

	if (parse_trace(name, text, &t, err, errlen) < 0)
		return -1;
	if (build_model(&t, m, t.err, sizeof(t.err)) < 0) {
		snprintf(err, errlen, "%s: %s", name, t.err);
		free_trace(&t);
		return -1;
	}
	if (out)
		fprintf(out, "comparing %s: %zu records, %u events, %s\n", name, t.n,
		        t.nev, sm_arch_name(t.arch));
	for (size_t k = 0; k < t.n && !t.capped; k++) {
		const struct trace_line *l = &t.l[k];
		if (strcmp(l->kind, "switches") ||
		    (rc = switch_count(&t, l, since, &n)) == 0)
			continue;
		if (rc < 0)
			break;
		rc = 0;
		if (!strcmp(l->what, "open")) { /* the baseline */
			since = n;
			continue;
		}
		if (!strcmp(l->what, "after")) {
			/* switches during the action: a migration is one itself */
			uint64_t own = last_action &&
			               !strcmp(last_action->what, "migrate");
			uint64_t extra = n > since + own ? n - since - own : 0;
			apply_switches(&t, m, extra);
			if (extra && last_action) {
				split_switches(&t, &pre, last_action, extra, cand, &ncand);
				for (unsigned i = 0; i < t.nev; i++)
					after_reset[i] = false;
			}
			since = n;
			continue;
		}
		/* before the next action: the switches since, then compare (a
		 * switch rewrote the page after a reset: its offset moved on) */
		unsigned best = 0;
		for (unsigned i = 0; n > since && i < t.nev; i++)
			after_reset[i] = false;
		for (unsigned c = 0; c < ncand; c++)
			apply_switches(&t, &cand[c], n > since ? n - since : 0);
		for (unsigned c = ncand; c-- > 1;)
			if (!compare_at(&t, &cand[c], k, label, after_reset, NULL))
				best = c;
		if (best && compare_at(&t, m, k, label, after_reset, NULL))
			*m = cand[best];
		ncand = 1;
		since = n;
		size_t a = t.next_action[k];
		diffs += compare_at(&t, m, k, label, after_reset, out);
		if (a >= t.n)
			break;
		pre = *m;
		apply_action(&t, m, &t.l[a], after_reset);
		last_action = &t.l[a];
		snprintf(label, sizeof(label), "%s (line %u)", t.l[a].what,
		         t.l[a].line);
		actions++;
	}
	free_trace(&t);
	if (rc < 0 || t.capped) {
		snprintf(err, errlen, "%s", t.err);
		return -1;
	}
	if (out)
		fprintf(out, "%u actions replayed: %s\n", actions, diffs
		        ? "the model differs from the recorded pages" :
		        "the model agrees with every recorded page");
	return diffs ? 1 : 0;
}

int cmd_model_compare(const char *path)
{
	char err[512];
	size_t len;
	char *text = sm_read_input(path, SM_TRACE_MAX_BYTES, &len, err,
	                           sizeof(err));

	if (!text)
		return usage_error("%s: %s", path, err);
	if (memchr(text, '\0', len)) {
		free(text);
		return usage_error("%s: file contains a NUL byte", path);
	}
	/* the report is printed only once the whole comparison ran: an input
	 * over a cap gets one line and no partial report */
	char *report = NULL, name[PATH_MAX];
	size_t rlen = 0;
	snprintf(name, sizeof(name), "%s", path);
	sm_printable(name); /* the report names the file on stdout */
	FILE *out = open_memstream(&report, &rlen);
	int rc = out ? hw_compare_text(name, text, out, err, sizeof(err)) : -1;
	if (!out)
		snprintf(err, sizeof(err), "%s: %s", path, strerror(errno));
	if (out && fclose(out) == 0 && rc >= 0)
		fwrite(report, 1, rlen, stdout);
	free(report);
	free(text);
	return rc < 0 ? usage_error("%s", err) : rc;
}
