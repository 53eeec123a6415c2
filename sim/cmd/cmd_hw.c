/*
 * cmd_hw.c — `selfmon hw` and `selfmon hw record`: the options, the
 * report and the exit status.
 *
 * Owns: parsing the arguments (options.c; one line and exit 2 on a bad
 * one), the events to check (a pinned pair and a multiplexed set with a
 * PMU, software events always), printing the machine, every page and each
 * reader's tally (text or JSON), and writing a recording to --out.  The
 * work is sim/hw's: real events (hw_event.c), the window check of a
 * reader (hw_check.c), the recorder (hw_record.c) and the trace format
 * (hw_trace.c).  On a machine without a PMU or without permission it
 * says so in one line and checks what it can with software events (the
 * index-0 path of every reader).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "hw_check.h"
#include "hw_record.h"
#include "hw_trace.h"
#include "json.h"
#include "outfile.h"
#include "session.h"

/* ---- the command ----------------------------------------------------- */

struct hw_opts {
	bool json;
	unsigned iterations;
	const struct sm_reader **readers; /* malloc'ed, room for every one */
	unsigned nreaders;
};

static const char usage[] =
	"usage: selfmon hw [READER...] [--iterations N] [--json]\n"
	"       selfmon hw record --out FILE [--events E,...] [--duration MS]\n\n"
	"Runs the built-in readers, built with the real instructions, against\n"
	"real perf events of this thread: each result must lie between read(2)\n"
	"just before and just after it, also after IOC_RESET, disable/enable and\n"
	"a migration.  Reports the machine, every page's capabilities and time\n"
	"fields, and the cost of a read.  Without a hardware PMU (or without\n"
	"permission) it says why and checks software events, whose index is 0.\n"
	"A read should take microseconds: a reader gets at most 10 ms of CPU\n"
	"time a read and 100 ms + 0.1 ms an iteration (200 ms by default) for\n"
	"all its work on one event; over either it is stopped and reported as\n"
	"hanging.  The command so uses at most readers x events x that budget.\n"
	"Exit status: 0 every check that could run passed (for the readers\n"
	"named, or the reference reader when none is), 1 a reader disagreed\n"
	"with the kernel, 2 bad usage.\n";

static int add_reader(struct hw_opts *o, const char *name)
{
	const struct sm_reader *r = sm_reader_find(name);

	if (!r || !r->hw)
		return usage_error("hw: unknown reader '%s' (built-in readers "
		                   "only; see 'selfmon list')", name);
	o->readers[o->nreaders++] = r;
	return 0;
}

static int iterations(const char *s, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!v || *end || v > 10000000)
		return usage_error("hw: --iterations needs 1..10000000");
	*out = (unsigned)v;
	return 0;
}

enum { O_JSON = SM_OPT_LONG, O_ITERATIONS };

static const struct sm_optdef hw_options[] = {
	{ "help", no_argument, 'h', NULL },
	{ "json", no_argument, O_JSON, NULL },
	{ "iterations", required_argument, O_ITERATIONS, "1..10000000" },
	{ 0 },
};

/* 0, 1 after --help (exit 0), or 2 after the message. */
static int parse(int argc, char **argv, struct hw_opts *o)
{
	struct sm_opt op;
	int c, rc = 0;

	o->iterations = 1000;
	o->readers = malloc(((size_t)argc + sm_nreaders) * sizeof(*o->readers));
	if (!o->readers)
		return usage_error("hw: out of memory");
	sm_opt_init(&op, "hw", argc, argv, hw_options);
	while (!rc && (c = sm_opt_next(&op)) != -1)
		switch (c) {
		case SM_OPT_OPERAND: rc = add_reader(o, op.arg); break;
		case O_JSON: o->json = true; break;
		case O_ITERATIONS: rc = iterations(op.arg, &o->iterations); break;
		case 'h': fputs(usage, stdout); return 1;
		default: return 2;
		}
	return rc;
}

static void page_report(FILE *f, const struct hw_event *e)
{
	struct perf_event_mmap_page p;

	if (!hw_snapshot(e->pc, &p)) {
		fprintf(f, "  %-16s page lock never settled\n", e->name);
		return;
	}
	fprintf(f, "  %-16s lock %u index %u offset %" PRId64 " enabled %" PRIu64
	        " running %" PRIu64 "\n", e->name, p.lock, p.index,
	        (int64_t)p.offset, (uint64_t)p.time_enabled,
	        (uint64_t)p.time_running);
	fprintf(f, "  %-16s caps: bit0_is_deprecated %u user_rdpmc %u user_time "
	        "%u user_time_zero %u user_time_short %u; pmc_width %u\n", "",
	        (unsigned)p.cap_bit0_is_deprecated, (unsigned)p.cap_user_rdpmc,
	        (unsigned)p.cap_user_time, (unsigned)p.cap_user_time_zero,
	        (unsigned)p.cap_user_time_short, p.pmc_width);
	fprintf(f, "  %-16s time_mult %u time_shift %u time_offset %" PRId64
	        " time_zero %" PRIu64 " time_cycles %" PRIu64 " time_mask 0x%"
	        PRIx64 "\n", "", p.time_mult, p.time_shift, (int64_t)p.time_offset,
	        (uint64_t)p.time_zero, (uint64_t)p.time_cycles,
	        (uint64_t)p.time_mask);
}

/* The events to check: software ones always; with a PMU the pinned pair
 * and a set larger than the counters, multiplexed (at most MAX_EVENTS). */
#define MAX_EVENTS 16

static unsigned pick_events(const struct hw_machine *m, struct hw_event *ev)
{
	static const char *const sw[] = { "task-clock", "cpu-clock",
	                                  "page-faults" };
	static const char *const pinned[] = { "instructions", "cycles" };
	static const char *const mux[] = { "instructions", "cycles", "branches",
	                                   "branch-misses", "cache-references",
	                                   "cache-misses", "bus-cycles",
	                                   "ref-cycles", "branches",
	                                   "cache-misses" };
	unsigned n = 0;

	for (size_t i = 0; i < 3; i++)
		hw_lookup(sw[i], &ev[n++]);
	if (!m->pmu)
		return n;
	for (size_t i = 0; i < 2; i++) {
		hw_lookup(pinned[i], &ev[n]);
		ev[n++].pinned = true;
	}
	for (size_t i = 0; i < sizeof(mux) / sizeof(mux[0]); i++)
		hw_lookup(mux[i], &ev[n++]);
	return n;
}

static void machine_report(FILE *f, const struct hw_machine *m,
                           const struct hw_event *ev, unsigned nev)
{
	fprintf(f, "selfmon hw: %s, %d CPUs, perf_event_paranoid %d, %s\n",
	        m->arch, m->ncpus, m->paranoid, m->user_access);
	fprintf(f, "%s\n", m->pmu ? "hardware PMU: yes" : m->no_pmu);
	fprintf(f, "\npages:\n");
	for (unsigned i = 0; i < nev; i++)
		if (ev[i].pc)
			page_report(f, &ev[i]);
		else
			fprintf(f, "  %-16s not opened: %s\n", ev[i].name,
			        strerror(-ev[i].err));
}

static void json_head(struct json *j, const struct hw_machine *m)
{
	json_begin(j, NULL, '{');
	json_str(j, "arch", m->arch);
	json_bool(j, "pmu", m->pmu);
	json_str(j, "pmu_detail", m->pmu ? "" : m->no_pmu);
	json_u64(j, "perf_event_paranoid", (uint64_t)m->paranoid);
	json_str(j, "user_access", m->user_access);
	json_begin(j, "checks", '[');
}

static void json_tally(struct json *j, const struct sm_reader *r,
                       const struct hw_event *e, const struct hw_tally *t)
{
	json_begin(j, NULL, '{');
	json_str(j, "reader", r->name);
	json_str(j, "event", e->name);
	json_u64(j, "checks", t->runs);
	json_u64(j, "wrong", t->fails);
	json_str(j, "first", t->first);
	json_bool(j, "hung", t->hung);
	json_u64(j, "cpu_us", t->cpu_ns / 1000);
	json_u64(j, "read_ps", (uint64_t)(t->read_ns * 1000));
	json_u64(j, "syscall_ps", (uint64_t)(t->syscall_ns * 1000));
	json_end(j, '{');
}

/* What the checks found, for the exit status and the closing lines. */
struct outcome {
	unsigned bad, hung;
};

/* Every reader on every event that opened, one line (and JSON object)
 * each. */
static void check_all(FILE *f, struct json *j, const struct hw_opts *o,
                      bool named, const struct hw_machine *m,
                      struct hw_event *ev, unsigned nev, struct outcome *out)
{
	for (unsigned k = 0; k < o->nreaders; k++)
		for (unsigned i = 0; i < nev; i++) {
			const struct sm_reader *r = o->readers[k];
			struct hw_tally t;
			if (!ev[i].pc)
				continue;
			hw_check_reader(r, &ev[i], o->iterations, m->ncpus, &t);
			out->hung += t.hung;
			bool counts = named || !strcmp(r->name, "reference");
			out->bad += counts && t.fails;
			fprintf(f, "%-20s %-16s %8u %8u %10.1f %10.1f %6.2f  %s%s\n",
			        r->name, ev[i].name, t.runs, t.fails, t.read_ns,
			        t.syscall_ns, t.syscall_ns > 0 ? t.read_ns / t.syscall_ns
			                                       : 0, t.first,
			        t.fails && !counts ? " (a corpus variant)" : "");
			if (o->json)
				json_tally(j, r, &ev[i], &t);
		}
}

static void check_report(FILE *f, const struct hw_opts *o, bool named,
                         const struct hw_machine *m, struct hw_event *ev,
                         unsigned nev, struct outcome *out)
{
	struct json j;

	json_init(&j, stdout);
	if (o->json)
		json_head(&j, m);
	fprintf(f, "\nchecks (%u reads each, then after IOC_RESET, "
	        "disable/enable, migration; each reader at most %d ms of CPU "
	        "time a read and %" PRIu64 " ms an event):\n", o->iterations,
	        HW_CALL_CPU_MS, hw_budget_ms(o->iterations));
	fprintf(f, "%-20s %-16s %8s %8s %10s %10s %6s  %s\n", "reader", "event",
	        "checks", "wrong", "ns/read", "ns/read(2)", "ratio", "first");
	check_all(f, &j, o, named, m, ev, nev, out);
	if (o->json) {
		json_end(&j, '[');
		json_u64(&j, "disagreements", out->bad);
		json_u64(&j, "hanging", out->hung);
		json_u64(&j, "budget_ms", hw_budget_ms(o->iterations));
		json_end(&j, '{');
		putchar('\n');
	}
	if (out->hung)
		fprintf(f, "\n%u checks stopped: the reader hangs (more than %d ms "
		        "of CPU time for a read or %" PRIu64 " ms for the event)\n",
		        out->hung, HW_CALL_CPU_MS, hw_budget_ms(o->iterations));
	fprintf(f, "\n%s\n", out->bad ? "a reader disagreed with the kernel"
	                              : "every check that could run passed");
}

static int cmd_hw_record(int argc, char **argv);

int cmd_hw(int argc, char **argv)
{
	struct hw_opts o = { 0 };
	struct hw_machine m;
	struct hw_event ev[MAX_EVENTS];
	struct outcome out = { 0, 0 };
	int rc;

	if (argc > 0 && !strcmp(argv[0], "record"))
		return cmd_hw_record(argc - 1, argv + 1);
	if ((rc = parse(argc, argv, &o)) != 0) {
		free(o.readers);
		return rc == 1 ? 0 : rc;
	}
	hw_describe(&m);
	unsigned nev = pick_events(&m, ev);
	for (unsigned i = 0; i < nev; i++)
		hw_open(&ev[i]);
	bool named = o.nreaders > 0;
	for (unsigned i = 0; !named && i < sm_nreaders; i++)
		if (sm_readers[i].hw)
			o.readers[o.nreaders++] = &sm_readers[i];
	FILE *f = o.json ? stderr : stdout;
	machine_report(f, &m, ev, nev);
	check_report(f, &o, named, &m, ev, nev, &out);
	for (unsigned i = 0; i < nev; i++)
		hw_close(&ev[i]);
	free(o.readers);
	return out.bad ? 1 : 0;
}

/* ---- hw record ------------------------------------------------------- */

struct record_opts {
	const char *out, *events;
	unsigned long ms;
};

static int duration(const char *s, unsigned long *ms)
{
	char *end;

	*ms = strtoul(s, &end, 10);
	if (*end || *ms < 10 || *ms > 600000)
		return usage_error("hw record: --duration needs 10..600000 (ms)");
	return 0;
}

enum { O_OUT = SM_OPT_LONG, O_EVENTS, O_DURATION };

static const struct sm_optdef record_options[] = {
	{ "out", required_argument, O_OUT, "a FILE" },
	{ "events", required_argument, O_EVENTS, "a list of events" },
	{ "duration", required_argument, O_DURATION, "10..600000 (ms)" },
	{ 0 },
};

static int record_opts(int argc, char **argv, struct record_opts *o)
{
	struct sm_opt op;
	int c;

	sm_opt_init(&op, "hw record", argc, argv, record_options);
	while ((c = sm_opt_next(&op)) != -1)
		switch (c) {
		case O_OUT: o->out = op.arg; break;
		case O_EVENTS: o->events = op.arg; break;
		case O_DURATION:
			if (duration(op.arg, &o->ms))
				return 2;
			break;
		case SM_OPT_OPERAND:
			return usage_error("hw record: unexpected '%s' (see 'selfmon "
			                   "hw --help')", op.arg);
		default:
			return 2;
		}
	if (!o->out)
		return usage_error("hw record: missing --out FILE");
	return 0;
}

/* The recording to o->out, never half a file. */
static int write_recording(struct hw_recorder *rc, const char *path)
{
	struct sm_out o;
	char err[256];

	if (sm_out_open(&o, path, err, sizeof(err)) < 0)
		return usage_error("hw record: %s: %s", path, err);
	hw_trace_write(o.f, path, rc->ev, rc->nev, rc->r, rc->n);
	if (sm_out_close(&o, err, sizeof(err)) < 0)
		return usage_error("hw record: %s: %s", path, err);
	return 0;
}

static int cmd_hw_record(int argc, char **argv)
{
	struct record_opts o = { NULL, "task-clock,page-faults,cpu-clock", 200 };
	char err[256];

	int r = record_opts(argc, argv, &o);
	if (r)
		return r;
	struct hw_recorder *rc = calloc(1, sizeof(*rc));
	if (!rc)
		return usage_error("hw record: out of memory");
	if (hw_record(rc, o.events, o.ms, err, sizeof(err)) < 0)
		r = usage_error("hw record: %s", err);
	else
		r = write_recording(rc, o.out);
	if (r == 0)
		printf("recorded %zu records of %u events to %s\n", rc->n, rc->nev,
		       o.out);
	hw_record_free(rc);
	free(rc);
	return r;
}
