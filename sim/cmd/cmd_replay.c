/*
 * cmd_replay.c — `selfmon replay SCHEDULE|TRACE [--explain [--json]]
 * [--html FILE]`: one schedule, re-run deterministically from the start,
 * with its verdict and (--explain) the step-by-step listing, as text or
 * as one JSON document; --html writes the page to step through
 * (sim/teach/).  A TRACE (cex_trace.h) holds the replay to the reader
 * code and the scenario it was found with (their SHA-256, cex_files.h)
 * and to its verdict; a packed one (cex_pack.h) brings its object and
 * scenario, run from memory.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action_filter.h"
#include "bundled.h"
#include "cex_files.h"
#include "cex_pack.h"
#include "cex_trace.h"
#include "commands.h"
#include "options.h"
#include "outfile.h"
#include "explain.h"
#include "explore.h"
#include "input.h"
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
	"A TRACE records the SHA-256 of the reader's code and of the scenario\n"
	"file: when either differs now, replay refuses it (exit 2).  TRACE may\n"
	"also be a file 'selfmon pack' wrote: the trace with the reader's\n"
	"object and the scenario's text, replayed from the file alone.\n"
	"Exit status: 0 PASS (or BLOCKED), 1 another verdict, 2 bad input or\n"
	"selfmon's own error (ERROR), 3 a verdict other than the one the\n"
	"TRACE records, 4 UNSUPPORTED (the emulator cannot run an\n"
	"instruction).\n";

/* What a TRACE argument brings: the trace, and a packed file's parts. */
struct source {
	const char *file;        /* the TRACE argument; NULL: a schedule line */
	struct sm_cex_trace t;
	struct sm_cex_pack pk;   /* pk.trace NULL: a plain trace */
};

/* The trace (or packed file) at path into src: 0, or -1 with one line in
 * err. */
static int load_source(const char *path, struct source *src, char *err,
                       size_t n)
{
	char why[256], name[PATH_MAX + 16];
	size_t len;
	uint8_t *bytes = (uint8_t *)sm_read_input(path, SM_PACK_MAX_BYTES, &len,
	                                          why, sizeof(why));

	src->file = path;
	if (!bytes)
		return snprintf(err, n, "%s: %s", path, why), -1;
	if (!sm_cex_pack_is(bytes, len)) { /* a plain trace, its own rules */
		free(bytes);
		return sm_cex_trace_load(path, &src->t, err, n);
	}
	int rc = sm_cex_pack_parse(path, bytes, len, &src->pk, err, n);
	free(bytes);
	snprintf(name, sizeof(name), "%s(trace)", path);
	if (rc == 0 && sm_cex_trace_parse(name, src->pk.trace, &src->t, err,
	                                  n) < 0)
		rc = -1;
	return rc;
}

static void source_free(struct source *src)
{
	sm_cex_trace_free(&src->t);
	sm_cex_pack_free(&src->pk);
}

/* A hash the trace records (want) against the one of what replay would
 * run (got): 0 equal, else -1 with the line in err. */
static int same_hash(const struct source *src, const char *what,
                     const char *want, const char *got, char *err, size_t n)
{
	if (!strcmp(want, got))
		return 0;
	return snprintf(err, n, "%s: %s differs from the one the trace "
	                "was found with (SHA-256 %.12s..., the trace records "
	                "%.12s...)", src->file, what, got, want), -1;
}

/* A built-in reader's code is this selfmon's: its hash (Unicorn) or,
 * natively, the version must be the trace's. */
static int check_builtin(const struct source *src,
                         const struct sm_schedule_line *sl, char *err,
                         size_t n)
{
	char got[SM_SHA256_HEX];
	int rc = sm_cex_object_hash(sl->reader, sl->arch, sl->engine, got, err, n);

	if (rc < 0)
		return -1;
	if (rc == 0 && src->t.object)
		return same_hash(src, "this selfmon's built-in reader code",
		                 src->t.object, got, err, n);
	if (src->t.version && strcmp(src->t.version, SELFMON_VERSION))
		return snprintf(err, n, "%s: selfmon %s wrote it, this is "
		                "%s: a built-in reader run natively is selfmon's own "
		                "code", src->file, src->t.version,
		                SELFMON_VERSION), -1;
	return 0;
}

/* The hashes a trace records against what replay would run: the files
 * its line names, or a packed file's parts.  0, or -1 with one line in
 * err. */
static int check_hashes(const struct source *src,
                        const struct sm_schedule_line *sl, char *err, size_t n)
{
	const struct sm_cex_pack *pk = &src->pk;
	const struct sm_cex_trace *t = &src->t;
	char got[SM_SHA256_HEX], path[PATH_MAX];
	bool user = sm_cex_user_path(sl->reader, path, sizeof(path));

	if (!pk->trace) { /* a plain trace: the files as they are now */
		if (t->scenario &&
		    (sm_cex_scenario_hash(sl->scenario, got, err, n) < 0 ||
		     same_hash(src, "the scenario", t->scenario, got, err, n) < 0))
			return -1;
		if (!user)
			return check_builtin(src, sl, err, n);
		if (t->object &&
		    (sm_cex_object_hash(sl->reader, sl->arch, sl->engine, got, err,
		                        n) < 0 ||
		     same_hash(src, "the reader object", t->object, got, err, n) < 0))
			return -1;
		return 0;
	}
	if (!t->scenario || (user && !t->object))
		return snprintf(err, n, "%s: the packed trace records no "
		                "hash of its %s", src->file,
		                !t->scenario ? "scenario" : "reader object"), -1;
	if (user != (pk->object != NULL))
		return snprintf(err, n, "%s: %s", src->file, user
		                ? "no reader object packed for a user's reader"
		                : "a reader object packed for a built-in reader"), -1;
	sm_sha256_hex(pk->scenario, pk->scenario_len, got);
	if (same_hash(src, "the packed scenario", t->scenario, got, err, n) < 0)
		return -1;
	if (!user)
		return check_builtin(src, sl, err, n);
	sm_sha256_hex(pk->object, pk->object_len, got);
	return same_hash(src, "the packed reader object", t->object, got, err, n);
}

/* What the reader returned, as its ABI returns it. */
static void print_returned(const struct sm_reader *r,
                           const struct sm_result *res)
{
	switch (r->abi) {
	case SM_ABI_RAW:
	case SM_ABI_SCALED:
	case SM_ABI_DELTA:
		printf("returned %s=%" PRIu64 "\n", r->abi == SM_ABI_RAW ? "count"
		       : r->abi == SM_ABI_DELTA ? "delta" : "scaled count",
		       res->value[0]);
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

/* Run one schedule of a reader in a scenario (loaded); its exit status
 * (3 when the verdict is not `recorded`, a trace's, when that is not -1). */
static int run_line(const struct sm_schedule_line *sl, const char *text,
                    const struct sm_reader *r, const struct sm_scenario *scn,
                    int recorded, const struct opts *o)
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
	if (rc != 2 && recorded >= 0 && (int)res->verdict != recorded) {
		sm_error("replay: the verdict is %s, the trace records %s (the "
		         "reader, the scenario or selfmon's model is not the one it "
		         "was found with)", sm_verdict_name(res->verdict),
		         sm_verdict_name((enum sm_verdict)recorded));
		rc = 3;
	}
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
                   const struct sm_cex_pack *pk, struct sm_user_reader *user,
                   const struct sm_reader **r, struct sm_scenario *scn,
                   const char *kernel, char *err, size_t n)
{
	char why[512];

	*r = sm_reader_find(sl->reader);
	if (!*r && strchr(sl->reader, '#')) {
		if ((pk->object ? sm_user_reader_from_sched_mem(sl->reader, pk->object,
		                                                pk->object_len, user,
		                                                why, sizeof(why))
		     : sm_user_reader_from_sched(sl->reader, user, why,
		                                 sizeof(why))) < 0)
			return snprintf(err, n, "replay: %s", why), -1;
		*r = &user->r;
	}
	if (!*r)
		return snprintf(err, n, "replay: unknown reader '%s'%s", sl->reader,
		                sm_reader_hint(sl->reader)), -1;
	if (!sm_reader_on(*r, sl->arch))
		return snprintf(err, n, "replay: reader '%s' is not built for %s",
		                sl->reader, sm_arch_name(sl->arch)), -1;
	if ((pk->scenario ? sm_scenario_parse(sl->scenario, pk->scenario, scn,
	                                      err, n)
	     : sm_scenario_open(sl->scenario, scn, err, n)) < 0)
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

/* Replay the schedule line `text`, or src's trace when src->file. */
static int replay(const char *text, const struct source *src,
                  const struct opts *o)
{
	struct sm_user_reader *user = malloc(sizeof(*user));
	struct sm_scenario *scn = malloc(sizeof(*scn));
	const struct sm_reader *r = NULL;
	struct sm_schedule_line sl;
	char err[PATH_MAX + 1024];
	int rc;

	if (!user || !scn)
		rc = sm_error("replay: out of memory");
	else if (sm_schedule_parse(text, &sl, err, sizeof(err)) < 0)
		rc = sm_error("replay: %s", err);
	else if (src->file && check_hashes(src, &sl, err, sizeof(err)) < 0)
		rc = sm_error("replay: %s", err);
	else if ((rc = resolve(&sl, &src->pk, user, &r, scn, o->kernel, err,
	                       sizeof(err))) < 0)
		rc = sm_error("%s", err);
	else
		rc = run_line(&sl, text, r, scn, o->kernel ? -1 : src->t.verdict, o);
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
	char err[PATH_MAX + 1024];

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
	struct source src = { .t.verdict = -1 };
	if (!strchr(arg, ':')) {
		if (load_source(arg, &src, err, sizeof(err)) < 0) {
			source_free(&src);
			return sm_error("replay: %s", err);
		}
		arg = src.t.schedule;
	}
	int rc = replay(arg, &src, &o);
	source_free(&src);
	return rc;
}
