/*
 * cmd_replay.c — `selfmon replay SCHEDULE|TRACE [--explain [--json]]
 * [--html FILE]`: one schedule, re-run deterministically from the start,
 * with its verdict and (--explain) the step-by-step listing, as text or
 * as one JSON document; --html writes the page to step through
 * (sim/teach/).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action_filter.h"
#include "bundled.h"
#include "cex_trace.h"
#include "commands.h"
#include "options.h"
#include "outfile.h"
#include "explain.h"
#include "explore.h"
#include "names.h"
#include "replay.h"
#include "teach.h"
#include "user_reader.h"

static const char usage[] =
	"usage: selfmon replay SCHEDULE|TRACE [--explain [--json]] [--html FILE]"
	"\n                      [--kernel K]\n\n"
	"SCHEDULE is the one-line form check prints, e.g.\n"
	"  x86_64:unicorn:no_sext:x86_overflow:overflow@12\n"
	"(ARCH:ENGINE:READER:SCENARIO:ACTIONS, ACTIONS '-' or action@step,...,\n"
	"an action landing before the step-th executed instruction, then\n"
	"';kernel=V,...' when check ran under a kernel variant); TRACE is a\n"
	"file check wrote.  --explain lists every executed instruction, every\n"
	"page field loaded, every trapped read and every kernel action; with\n"
	"--json as one JSON document instead (64-bit values as strings).\n"
	"--html FILE writes one self-contained page to step through the call\n"
	"in a browser: the instructions, the page, the values loaded, the\n"
	"timeline and the verdict (FILE '-': on standard output, alone).\n"
	"--kernel K replays under kernel K (base or V[,V...], see 'selfmon\n"
	"list') instead of the line's.\n"
	"Exit status: 0 PASS (or BLOCKED), 1 another verdict, 2 bad input or\n"
	"selfmon's own error (ERROR), 4 UNSUPPORTED (the emulator cannot run\n"
	"an instruction).\n";

/* The `schedule` line of a counterexample trace file (cex_trace.h), in
 * memory of its own (free() it), or NULL with the error line in err. */
static char *from_trace(const char *path, char *err, size_t n)
{
	struct sm_cex_trace t;
	char *line;

	if (sm_cex_trace_load(path, &t, err, n) < 0)
		return NULL;
	line = t.schedule;
	t.schedule = NULL;
	sm_cex_trace_free(&t);
	return line;
}

/* What the reader returned, as its ABI returns it. */
static void print_returned(const struct sm_reader *r,
                           const struct sm_result *res)
{
	switch (r->abi) {
	case SM_ABI_RAW:
	case SM_ABI_SCALED:
		printf("returned %s=%" PRIu64 "\n", r->abi == SM_ABI_RAW ? "count"
		       : "scaled count", res->value[0]);
		break;
	case SM_ABI_TIMES:
		printf("returned count=%" PRIu64 " enabled=%" PRIu64 " running=%"
		       PRIu64 "\n", res->value[0], res->value[1], res->value[2]);
		break;
	default:
		printf("returned %d, count=%" PRIu64 " enabled=%" PRIu64
		       " running=%" PRIu64 "\n", res->rc, res->value[0],
		       res->value[1], res->value[2]);
	}
}

/* The verdict line and, when the reader returned, what it returned. */
static void print_verdict(const struct sm_reader *r,
                          const struct sm_result *res, bool explain)
{
	printf("%s%s after %" PRIu64 " steps: %s\n", explain ? "\n" : "",
	       sm_verdict_name(res->verdict), res->steps, res->detail);
	if (res->verdict == SM_V_PASS || res->verdict == SM_V_WRONG_VALUE)
		print_returned(r, res);
}

struct opts {
	bool explain, json;
	const char *html;
	const char *kernel; /* --kernel */
};

/* The JSON document or the page of a run listed with x->record. */
static int teach(const struct opts *o, const struct sm_schedule_line *sl,
                 const char *text, const struct sm_session *s,
                 const struct sm_explain *x)
{
	struct sm_teach t = { .schedule = text, .scenario = sl->scenario,
	                      .s = s, .sched = &sl->sched, .x = x };
	char err[600];

	if (x->oom)
		return sm_error("replay: out of memory");
	if (o->json)
		sm_teach_json(stdout, &t);
	if (o->html && sm_teach_html_file(o->html, &t, err, sizeof(err)) < 0)
		return sm_error("replay: %s: %s", o->html, err);
	return 0;
}

/* Run one schedule of a reader in a scenario (loaded); its exit status. */
static int run_line(const struct sm_schedule_line *sl, const char *text,
                    const struct sm_reader *r, const struct sm_scenario *scn,
                    const struct opts *o)
{
	struct sm_explain x;
	char err[512];
	bool explain = o->explain || o->html;
	struct sm_replay_listing l = {
		explain ? &x : NULL, o->explain && !o->json ? stdout : NULL,
		.record = o->json || o->html,
	};
	struct sm_session *s = sm_replay_open(scn, r, sl->engine, &l, err,
	                                      sizeof(err));

	if (!s)
		return sm_error("replay: %s", err);
	if (o->explain && !o->json)
		printf("replay %s\n  %s: %s (%s ABI)\n", text, r->name, r->what,
		       sm_abi_name(r->abi));
	sm_run_schedule(s, &sl->sched);
	const struct sm_result *res = &s->res;
	int rc = res->verdict == SM_V_ERROR ? 2 : res->verdict == SM_V_UNSUPPORTED ? 4
	         : sm_verdict_fails(res->verdict) ? 1 : 0;
	if (explain && x.oom)
		rc = sm_error("replay: out of memory (the listing)");
	else if (!o->json && !(o->html && sm_out_is_stdout(o->html)))
		print_verdict(r, res, o->explain); /* (the page alone there) */
	if (explain) {
		sm_explain_done(&x);
		if (rc != 2 && x.record && teach(o, sl, text, s, &x))
			rc = 2;
		sm_explain_free(&x);
	}
	sm_session_free(s);
	return rc;
}

/* The reader and the scenario a parsed line names, or an error line in
 * err (0 or -1). */
static int resolve(const struct sm_schedule_line *sl,
                   struct sm_user_reader *user, const struct sm_reader **r,
                   struct sm_scenario *scn, const char *kernel, char *err,
                   size_t n)
{
	char why[512];

	*r = sm_reader_find(sl->reader);
	if (!*r && strchr(sl->reader, '#')) {
		if (sm_user_reader_from_sched(sl->reader, user, why, sizeof(why)) < 0)
			return snprintf(err, n, "replay: %s", why), -1;
		*r = &user->r;
	}
	if (!*r)
		return snprintf(err, n, "replay: unknown reader '%s'%s", sl->reader,
		                sm_reader_hint(sl->reader)), -1;
	if (!sm_reader_on(*r, sl->arch))
		return snprintf(err, n, "replay: reader '%s' is not built for %s",
		                sl->reader, sm_arch_name(sl->arch)), -1;
	if (sm_scenario_open(sl->scenario, scn, err, n) < 0)
		return -1;
	struct sm_action_filter drop = { .without = sl->sched.dropped,
	                                 .drop_scripted = true };
	sm_action_filter_apply(&drop, scn, NULL); /* ;dropped= */
	if (scn->cfg.arch != sl->arch)
		return snprintf(err, n, "replay: scenario %s is for %s, not %s",
		                sl->scenario, sm_arch_name(scn->cfg.arch),
		                sm_arch_name(sl->arch)), -1;
	if (kernel) /* --kernel */
		return sm_kernel_parse(kernel, (int)scn->cfg.arch, &scn->cfg.kernel,
		                       why, sizeof(why)) < 0
		       ? snprintf(err, n, "replay: %s", why), -1 : 0;
	if (!(sl->sched.kernel & SM_SCHED_KERNEL)) /* ;kernel= */
		return 0;
	scn->cfg.kernel = sl->sched.kernel & ~SM_SCHED_KERNEL;
	if (sm_kernel_check_arch(scn->cfg.kernel, scn->cfg.arch, why,
	                         sizeof(why)) < 0)
		return snprintf(err, n, "replay: %s", why), -1;
	return 0;
}

/* Replay the schedule line `text`. */
static int replay(const char *text, const struct opts *o)
{
	struct sm_user_reader *user = malloc(sizeof(*user));
	struct sm_scenario *scn = malloc(sizeof(*scn));
	const struct sm_reader *r = NULL;
	struct sm_schedule_line sl;
	char err[1024];
	int rc;

	if (!user || !scn)
		rc = sm_error("replay: out of memory");
	else if (sm_schedule_parse(text, &sl, err, sizeof(err)) < 0)
		rc = sm_error("replay: %s", err);
	else if ((rc = resolve(&sl, user, &r, scn, o->kernel, err,
	                       sizeof(err))) < 0)
		rc = sm_error("%s", err);
	else
		rc = run_line(&sl, text, r, scn, o);
	if (user && r == &user->r)
		sm_user_reader_free(user);
	if (user && scn)
		sm_schedule_line_free(&sl);
	free(user);
	free(scn);
	return rc;
}

enum { O_EXPLAIN = SM_OPT_LONG, O_JSON, O_HTML, O_KERNEL };

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ "explain", no_argument, O_EXPLAIN, NULL },
	{ "json", no_argument, O_JSON, NULL },
	{ "html", required_argument, O_HTML, "a FILE" },
	{ "kernel", required_argument, O_KERNEL, "base or V[,V...]" },
	{ 0 },
};

int cmd_replay(int argc, char **argv)
{
	const char *arg = NULL;
	struct opts o = { 0 };
	char *line = NULL, err[1024];

	struct sm_opt op;
	int c;

	sm_opt_init(&op, "replay", argc, argv, options);
	while ((c = sm_opt_next(&op)) != -1)
		if (c == 'h')
			return fputs(usage, stdout), 0;
		else if (c == SM_OPT_BAD)
			return 2;
		else if (c == O_EXPLAIN)
			o.explain = true;
		else if (c == O_JSON)
			o.json = true;
		else if (c == O_HTML)
			o.html = op.arg;
		else if (c == O_KERNEL)
			o.kernel = op.arg;
		else if (arg)
			return sm_error("replay: unexpected argument '%s'", op.arg);
		else
			arg = op.arg;
	if (!arg)
		return sm_error("replay: missing SCHEDULE or TRACE (see "
		                   "'selfmon replay --help')");
	if (o.json && !o.explain)
		return sm_error("replay: --json needs --explain");
	if (o.html && sm_out_is_stdout(o.html) && o.explain)
		return sm_error("replay: --html %s and --explain both want standard "
		                "output: give one", o.html);
	if (o.html && sm_teach_html_probe(o.html, err, sizeof(err)) < 0)
		return sm_error("replay: %s: %s", o.html, err);
	if (!strchr(arg, ':')) {
		if (!(line = from_trace(arg, err, sizeof(err))))
			return sm_error("replay: %s", err);
		arg = line;
	}
	int rc = replay(arg, &o);
	free(line);
	return rc;
}
