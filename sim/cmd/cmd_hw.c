/*
 * cmd_hw.c — `selfmon hw` and `selfmon hw record`: the options, the
 * report and the exit status.
 *
 * Owns: parsing the arguments (options.c; one line and exit 2 on a bad
 * one) and writing a recording to --out.  The work is sim/hw's: the run
 * (hw_run.c: the events, each reader's window check, hw_check.c), the
 * recorder (hw_record.c) and the trace format (hw_trace.c); the report is
 * hw_report.c's, shared with `selfmon vm`.  On a machine without a PMU or without permission it
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
#include "hw_report.h"
#include "hw_run.h"
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

	/* A user's object would run unemulated in this process: its code
	 * mapped executable beside selfmon's, its faults and stray stores
	 * selfmon's own.  `vm` runs it natively, contained in a guest. */
	if (!r && strchr(name, ':'))
		return sm_error("hw: '%s': a PATH:SYMBOL reader would run "
		                "uncontained inside selfmon's own process here; "
		                "run it natively on a real kernel with 'selfmon vm "
		                "ARCH %s --abi A' instead", name, name);
	if (!r || !r->hw)
		return sm_error("hw: unknown reader '%s' (built-in readers "
		                   "only; see 'selfmon list')", name);
	o->readers[o->nreaders++] = r;
	return 0;
}

static int iterations(const char *s, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!v || *end || v > 10000000)
		return sm_error("hw: --iterations needs 1..10000000");
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
		return sm_error("hw: out of memory");
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

static int cmd_hw_record(int argc, char **argv);

int cmd_hw(int argc, char **argv)
{
	struct hw_opts o = { 0 };
	struct hw_run run;
	struct hw_outcome out;
	int rc;

	if (argc > 0 && !strcmp(argv[0], "record"))
		return cmd_hw_record(argc - 1, argv + 1);
	if ((rc = parse(argc, argv, &o)) != 0) {
		free(o.readers);
		return rc == 1 ? 0 : rc;
	}
	bool named = o.nreaders > 0;
	for (unsigned i = 0; !named && i < sm_nreaders; i++)
		if (sm_readers[i].hw)
			o.readers[o.nreaders++] = &sm_readers[i];
	if (hw_run_here(&run, o.readers, o.nreaders, o.iterations, 1) < 0) {
		free(o.readers);
		return sm_error("hw: out of memory");
	}
	hw_report(o.json ? stderr : stdout, o.json, "selfmon hw", named, &run,
	          &out);
	hw_run_free(&run);
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
		return sm_error("hw record: --duration needs 10..600000 (ms)");
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
			return sm_error("hw record: unexpected '%s' (see 'selfmon "
			                   "hw --help')", op.arg);
		default:
			return 2;
		}
	if (!o->out)
		return sm_error("hw record: missing --out FILE");
	return 0;
}

/* The recording to o->out, never half a file. */
static int write_recording(struct hw_recorder *rc, const char *path)
{
	struct sm_out o;
	char err[256];

	if (sm_out_open(&o, path, err, sizeof(err)) < 0)
		return sm_error("hw record: %s: %s", path, err);
	hw_trace_write(o.f, path, rc->ev, rc->nev, rc->r, rc->n);
	if (sm_out_close(&o, err, sizeof(err)) < 0)
		return sm_error("hw record: %s: %s", path, err);
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
		return sm_error("hw record: out of memory");
	if (hw_record(rc, o.events, o.ms, err, sizeof(err)) < 0)
		r = sm_error("hw record: %s", err);
	else
		r = write_recording(rc, o.out);
	if (r == 0)
		printf("recorded %zu records of %u events to %s\n", rc->n, rc->nev,
		       o.out);
	hw_record_free(rc);
	free(rc);
	return r;
}
