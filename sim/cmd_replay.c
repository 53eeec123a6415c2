/*
 * cmd_replay.c — `selfmon replay SCHEDULE|TRACE [--explain]`: one
 * schedule, re-run deterministically from the start, with its verdict and
 * (--explain) the step-by-step listing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "explain.h"
#include "explore.h"
#include "input.h"
#include "user_reader.h"

static const char usage[] =
	"usage: selfmon replay SCHEDULE|TRACE [--explain]\n\n"
	"SCHEDULE is the one-line form check prints, e.g.\n"
	"  x86_64:unicorn:no_sext:x86_overflow:overflow@12\n"
	"(ARCH:ENGINE:READER:SCENARIO:ACTIONS, ACTIONS '-' or action@step,...,\n"
	"an action landing before the step-th executed instruction); TRACE is a\n"
	"file check wrote.  --explain lists every executed instruction, every\n"
	"page field loaded, every trapped read and every kernel action.\n"
	"Exit status: 0 PASS (or BLOCKED), 1 another verdict, 2 bad input.\n";

/* The `schedule` line of a trace file (a regular file within the trace
 * cap): 0, or -1 with the reason in why. */
static int from_trace(const char *path, char *line, size_t n, char *why,
                      size_t whylen)
{
	size_t len;
	char *text = sm_read_input(path, SM_TRACE_MAX_BYTES, &len, why, whylen);

	if (!text)
		return -1;
	for (char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, "schedule ", 9)) {
			p += 9;
			snprintf(line, n, "%.*s", (int)strcspn(p, "\r\n"), p);
			free(text);
			return 0;
		}
	free(text);
	snprintf(why, whylen, "not a trace file with a 'schedule' line");
	return -1;
}

int cmd_replay(int argc, char **argv)
{
	const char *arg = NULL;
	bool explain = false;
	char line[2048], err[512], path[1024];
	struct sm_schedule_line sl;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--explain"))
			explain = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return fputs(usage, stdout), 0;
		else if (argv[i][0] == '-')
			return usage_error("replay: unknown option '%s'", argv[i]);
		else if (arg)
			return usage_error("replay: unexpected argument '%s'", argv[i]);
		else
			arg = argv[i];
	}
	if (!arg)
		return usage_error("replay: missing SCHEDULE or TRACE (see "
		                   "'selfmon replay --help')");
	if (!strchr(arg, ':')) {
		if (from_trace(arg, line, sizeof(line), err, sizeof(err)) < 0)
			return usage_error("replay: %s: %s", arg, err);
		arg = line;
	}
	if (sm_schedule_parse(arg, &sl, err, sizeof(err)) < 0)
		return usage_error("replay: %s", err);
	static struct sm_user_reader user;
	const struct sm_reader *r = sm_reader_find(sl.reader);
	if (!r && strchr(sl.reader, '#')) {
		if (sm_user_reader_from_sched(sl.reader, &user, err, sizeof(err)) < 0)
			return usage_error("replay: %s", err);
		r = &user.r;
	}
	if (!r)
		return usage_error("replay: unknown reader '%s'", sl.reader);
	if (!sm_reader_on(r, sl.arch))
		return usage_error("replay: reader '%s' is not built for %s",
		                   sl.reader, sm_arch_name(sl.arch));
	static struct sm_scenario scn;
	if (sm_scenario_resolve(sl.scenario, path, sizeof(path)) < 0 ||
	    sm_scenario_load(path, &scn, err, sizeof(err)) < 0)
		return usage_error("%s", err);
	if (scn.cfg.arch != sl.arch)
		return usage_error("replay: scenario %s is for %s, not %s",
		                   sl.scenario, sm_arch_name(scn.cfg.arch),
		                   sm_arch_name(sl.arch));
	struct sm_session *s = sm_session_new();
	struct sm_explain x;
	if (!s)
		return usage_error("replay: out of memory");
	if (sm_session_init(s, &scn, r, sl.engine, err, sizeof(err)) < 0) {
		sm_session_free(s);
		return usage_error("replay: %s", err);
	}
	if (explain) {
		sm_session_start(s);
		sm_explain_init(&x, stdout, s);
		s->explain = &x;
		printf("replay %s\n  %s: %s (%s ABI)\n", arg, r->name, r->what,
		       sm_abi_name(r->abi));
	}
	sm_run_schedule(s, &sl.sched);
	const struct sm_result *res = &s->res;
	printf("%s%s after %" PRIu64 " steps: %s\n", explain ? "\n" : "",
	       sm_verdict_name(res->verdict), res->steps, res->detail);
	if (res->verdict != V_FAULT && res->verdict != V_LIVELOCK &&
	    res->verdict != V_BLOCKED)
		printf("returned count=%" PRIu64 " enabled=%" PRIu64 " running=%"
		       PRIu64 " rc=%d\n", res->value[0], res->value[1],
		       res->value[2], res->rc);
	int rc = sm_verdict_fails(res->verdict) ? 1 : 0;
	if (explain)
		sm_explain_done(&x);
	sm_session_free(s);
	if (r == &user.r)
		sm_user_reader_free(&user);
	return rc;
}
