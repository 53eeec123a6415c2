/*
 * cmd_plot.c — `selfmon plot SCENARIO [--reader R] [--schedule S] -o F.svg`:
 * a timeline of a scenario as plain SVG.
 *
 * Owns: the command line, and the file, written whole or not at all and
 * never replacing a device or a symlink (outfile.c).  The picture is
 * sim/teach/timeline.c's.  It decides nothing about the kernel or the
 * reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action_filter.h"
#include "bundled.h"
#include "commands.h"
#include "options.h"
#include "explore.h"
#include "outfile.h"
#include "reader_arg.h"
#include "timeline.h"

static const char usage[] =
	"usage: selfmon plot SCENARIO [--reader R] [--schedule ACTIONS] -o FILE\n\n"
	"Draws SCENARIO as an SVG timeline: the first event's true count,\n"
	"enabled and running; every event's page index over time (in the ABI's\n"
	"notation) with each page update as a tick coloured by its cause; every\n"
	"kernel action, named; a time axis in cycles and a legend.\n"
	"With --reader, one call of that reader (a built-in name, or PATH:SYMBOL\n"
	"with --abi as check takes it) at the scenario's 'check at=' instant\n"
	"(with ACTIONS injected, e.g. reset@12,overflow@30) is drawn over it:\n"
	"its observation points and its verdict.\n\n"
	"  --kernel K      draw kernel K: base or V[,V...] (the kernel variants\n"
	"                  of 'selfmon list'); the title names it\n"
	SM_ACTION_FILTER_USAGE;

enum { O_READER = SM_OPT_LONG, O_SCHEDULE, O_KERNEL, O_ABI };

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ NULL, required_argument, 'o', "a FILE" },
	{ "reader", required_argument, O_READER, NULL },
	{ "schedule", required_argument, O_SCHEDULE, NULL },
	{ "abi", required_argument, O_ABI, "raw, times, scaled, values, delta or reset" },
	{ "kernel", required_argument, O_KERNEL, "base or V[,V...]" },
	SM_ACTION_FILTER_OPTIONS,
	{ 0 },
};

struct args {
	const char *path, *out, *reader, *sched, *kernel;
	int abi;                 /* --abi, -1: not given */
	struct sm_action_filter af;
};

/* The operand and options: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct args *a)
{
	struct sm_opt op;
	char err[160];
	int c, rc = 0;

	sm_opt_init(&op, "plot", argc, argv, options);
	while ((c = sm_opt_next(&op)) != -1) {
		if (c == 'h')
			return fputs(usage, stdout), 0;
		else if (c == SM_OPT_BAD)
			return 2;
		else if (c == 'o')
			a->out = op.arg;
		else if (c == O_READER)
			a->reader = op.arg;
		else if (c == O_SCHEDULE)
			a->sched = op.arg;
		else if (c == O_KERNEL)
			a->kernel = op.arg;
		else if (c == O_ABI) {
			if (sm_abi_arg("plot", op.arg, &a->abi))
				return 2;
		}
		else if (c != SM_OPT_OPERAND)
			rc = sm_action_filter_opt(&a->af, c, op.arg, err, sizeof(err));
		else if (a->path)
			return sm_error("plot: unexpected argument '%s'", op.arg);
		else
			a->path = op.arg;
		if (rc < 0)
			return sm_error("plot: %s", err);
	}
	if (!a->path || !a->out)
		return sm_error("plot: needs SCENARIO and -o FILE.svg");
	return -1;
}

/* The --schedule actions as a schedule (a line around them parsed):
 * 0, or the exit status after the error line. */
static int schedule(const struct args *a, struct sm_schedule_line *sl)
{
	char err[600];
	int rc;

	memset(sl, 0, sizeof(*sl));
	if (!a->sched)
		return 0;
	char *line = malloc(strlen(a->sched) + 32);
	if (!line)
		return sm_error("plot: out of memory");
	sprintf(line, "x86_64:unicorn:r:s:%s", a->sched);
	rc = sm_schedule_parse(line, sl, err, sizeof(err));
	free(line);
	if (rc < 0)
		return sm_error("plot: %s", err);
	for (unsigned k = 0; k < sl->sched.n; k++)
		if (sm_action_filter_excludes(&a->af, sl->sched.item[k].kind)) {
			sm_schedule_line_free(sl);
			return sm_error("plot: --schedule has %s, which "
			                   "--actions/--without leave out",
			                   sm_action_name(sl->sched.item[k].kind));
		}
	if (sl->sched.nstale && sm_action_filter_no_stale(&a->af)) {
		sm_schedule_line_free(sl);
		return sm_error("plot: --schedule has " SM_AF_STALE_NAME ", which "
		                "--actions/--without leave out");
	}
	return 0;
}

/* Draw into the output file: 0, or the exit status after the error. */
static int write_svg(const struct args *a, const struct sm_scenario *scn,
                     const struct sm_timeline_call *call,
                     const struct sm_timeline_opts *to)
{
	struct sm_out o;
	char err[600];

	if (sm_out_open(&o, a->out, err, sizeof(err)) < 0)
		return sm_error("plot: %s: %s", a->out, err);
	if (sm_timeline_svg(o.f, scn, call, to, err, sizeof(err)) < 0) {
		sm_out_abort(&o);
		return sm_error("plot: %s: %s", scn->name, err);
	}
	if (sm_out_close(&o, err, sizeof(err)) < 0)
		return sm_error("plot: %s: %s", a->out, err);
	return 0;
}

/* The scenario loaded: its picture, and the call drawn over it (a
 * user's reader loaded into u). */
static int plot(const struct args *a, struct sm_scenario *scn,
                struct sm_user_reader *u)
{
	char err[1024];
	int rc;

	if (sm_scenario_open(a->path, scn, err, sizeof(err)) < 0)
		return sm_error("%s", err);
	if (a->kernel && sm_kernel_parse(a->kernel, (int)scn->cfg.arch,
	                                 &scn->cfg.kernel, err, sizeof(err)) < 0)
		return sm_error("plot: %s: %s", a->path, err);
	struct sm_timeline_opts to = {
		.dropped = sm_action_filter_apply(&a->af, scn, NULL),
		.kernel_mark = a->kernel != NULL };
	struct sm_timeline_call call = { .engine = SM_ENGINE_UNICORN };
	if (!a->reader && a->abi >= 0)
		return sm_error("plot: --abi goes with --reader PATH:SYMBOL");
	if (a->reader && (rc = sm_reader_arg("plot", a->reader, a->abi, u,
	                                     &call.reader)) != 0)
		return rc;
	if (call.reader && call.reader->image &&
	    call.reader->image->arch != scn->cfg.arch)
		return sm_error("plot: %s is %s code, %s is an %s scenario",
		                a->reader, sm_arch_name(call.reader->image->arch),
		                a->path, sm_arch_name(scn->cfg.arch));
	struct sm_schedule_line sl;
	if ((rc = schedule(a, &sl)) != 0)
		return rc;
	call.sched = &sl.sched;
	rc = write_svg(a, scn, a->reader ? &call : NULL, &to);
	sm_schedule_line_free(&sl);
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	struct args a = { .abi = -1 };
	int rc = parse_args(argc, argv, &a);

	if (rc >= 0)
		return rc;
	struct sm_scenario *scn = malloc(sizeof(*scn));
	struct sm_user_reader *u = calloc(1, sizeof(*u));
	rc = scn && u ? plot(&a, scn, u) : sm_error("plot: out of memory");
	if (u)
		sm_user_reader_free(u);
	free(u);
	free(scn);
	return rc;
}
