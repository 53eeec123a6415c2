/*
 * cmd_model.c — `selfmon model SCENARIO [--json] [--kernel K]
 * [--kernel-diff V|A..B]`.
 *
 * Owns: driving the model through a scenario's timed actions with no reader
 * running, and printing each page update with the ground truth at that
 * instant, as JSON Lines or as a table.  It must not interpret scenario
 * syntax (scenario.c) nor decide kernel behaviour (model/).  `--compare
 * TRACE` reads a hw trace and prints what sim/hw/hw_compare.c finds;
 * `--kernel K` plays the scenario under kernel variants (model/variant.c);
 * `--kernel-diff` is model_diff.c's, given the options read here.
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundled.h"
#include "commands.h"
#include "options.h"
#include "hw_compare.h"
#include "hw_trace.h"
#include "input.h"
#include "json.h"
#include "model_diff.h"
#include "run.h"
#include "scenario.h"

struct printer {
	const struct sm_scenario *s;
	bool json;
	unsigned rows;
	bool kernel_given;  /* --kernel */
	unsigned kernel;    /* its variants */
	const char *diff;   /* --kernel-diff V or A..B, else NULL */
};

static const char usage[] =
	"usage: selfmon model SCENARIO [--json] [--kernel K]\n"
	"       selfmon model SCENARIO --kernel-diff V|A..B [--json] [--kernel K]\n"
	"       selfmon model --compare TRACE [--kernel K]\n\n"
	"Runs SCENARIO (a bundled name such as x86_reset, or a .scn path)\n"
	"through the kernel model alone and prints every update of every\n"
	"mmapped page: when (cycles after the start), which kernel action\n"
	"caused it, the page fields by their ABI names (caps: the capability\n"
	"letters, see 'selfmon list'), and the ground truth (count, enabled,\n"
	"running) at that instant.\n\n"
	"  --json   one JSON object per update (JSON Lines)\n"
	"  --kernel K  run the model as kernel K: base or V[,V...] (the kernel\n"
	"           variants of 'selfmon list'); default: the scenario's own\n"
	"  --kernel-diff V  play SCENARIO on the kernel (--kernel, or the\n"
	"           scenario's own) and again with V added, and print only the\n"
	"           page writes that differ, update by update: instant, action,\n"
	"           event, field, old and new value, then a summary line\n"
	"           (--json: one JSON document); a scenario whose pages are\n"
	"           written over 200000 times in one run is refused (exit 2)\n"
	"  --kernel-diff A..B  the same between kernel A and kernel B, each a\n"
	"           kernel as --kernel takes (6.12..7.2); not with --kernel\n"
	"  --compare TRACE  drive the model with the actions of a trace that\n"
	"           'selfmon hw record' wrote and report where the model's pages\n"
	"           differ from the recorded ones\n"
	"  --help   this text\n";

/* The page fields printed (model_field_shown()), in ABI order;
 * capability bits after `capabilities`. */
static void json_page(struct json *j, const struct perf_event_mmap_page *pc)
{
	json_begin(j, "page", '{');
	for (unsigned i = 0; i < selfmon_npage_fields; i++) {
		const struct selfmon_page_field *f = &selfmon_page_fields[i];
		uint64_t v = selfmon_page_get(pc, f);
		if (!model_field_shown(f))
			continue;
		if (f->is_signed)
			json_i64(j, f->name, (int64_t)v);
		else
			json_u64(j, f->name, v);
		if (!strcmp(f->name, "capabilities"))
			for (unsigned b = 0; b < MODEL_NCAPS; b++)
				json_u64(j, model_cap_names[b], (v >> b) & 1);
	}
	json_end(j, '{');
}

static void json_stores(struct json *j, const struct sm_model *m)
{
	uint16_t off;
	uint64_t val;

	json_begin(j, "stores", '[');
	for (unsigned k = 0; sm_model_store_at(m, k, &off, &val); k++) {
		const struct selfmon_page_field *f = selfmon_page_field_at(off);
		json_begin(j, NULL, '[');
		json_str(j, NULL, f ? f->name : "?");
		if (f && f->is_signed)
			json_i64(j, NULL, (int64_t)val);
		else
			json_u64(j, NULL, val);
		json_end(j, '[');
	}
	json_end(j, '[');
}

static void print_json(const struct printer *p, const struct sm_model *m,
                       int ev, enum sm_action_kind why,
                       const struct perf_event_mmap_page *pc,
                       const struct sm_truth *t)
{
	struct json j;

	json_init(&j, stdout);
	json_begin(&j, NULL, '{');
	json_u64(&j, "at", sm_model_now(m) - sm_model_config(m)->start);
	json_str(&j, "action", sm_action_name(why));
	json_str(&j, "event", sm_model_config(m)->event[ev].name);
	json_u64(&j, "cpu", sm_model_task_cpu(m));
	if (p->kernel_given || sm_model_config(m)->kernel) {
		char kn[256];
		json_str(&j, "kernel", sm_kernel_text(sm_model_config(m)->kernel, kn, sizeof(kn)));
	}
	json_page(&j, pc);
	json_begin(&j, "truth", '{');
	json_u64(&j, "count", t->count);
	json_u64(&j, "enabled", t->enabled);
	json_u64(&j, "running", t->running);
	json_end(&j, '{');
	if (p->s->cfg.writer == SM_WRITER_REMOTE)
		json_stores(&j, m);
	json_end(&j, '{');
	putchar('\n');
}

static void print_row(struct printer *p, const struct sm_model *m, int ev,
                      enum sm_action_kind why,
                      const struct perf_event_mmap_page *pc,
                      const struct sm_truth *t)
{
	bool timer = sm_model_config(m)->arch != SM_X86_64;

	if (p->rows++ % 20 == 0)
		printf("%8s %-11s %-12s %4s %10s %20s %12s %12s %4s %3s %2s %10s "
		       "%21s %20s%s %20s %12s %12s\n",
		       "at", "action", "event", "lock", "index", "offset",
		       "enabled", "running", "caps", "wid", "sh", "mult",
		       "time_offset", "time_zero",
		       timer ? "          time_cycles            time_mask" : "",
		       "true_count", "true_enab", "true_run");
	char caps[SM_NCAPS + 1];
	sm_caps_letters(pc->capabilities, caps);
	printf("%8" PRIu64 " %-11s %-12s %4u %10u %20" PRId64 " %12" PRIu64
	       " %12" PRIu64 " %4s %3u %2u %10u %21" PRId64 " %20" PRIu64,
	       sm_model_now(m) - sm_model_config(m)->start, sm_action_name(why),
	       sm_model_config(m)->event[ev].name, pc->lock, pc->index, (int64_t)pc->offset,
	       (uint64_t)pc->time_enabled, (uint64_t)pc->time_running, caps,
	       pc->pmc_width, pc->time_shift, pc->time_mult,
	       (int64_t)pc->time_offset, (uint64_t)pc->time_zero);
	if (timer)
		printf(" %20" PRIu64 " %20" PRIu64, (uint64_t)pc->time_cycles,
		       (uint64_t)pc->time_mask);
	printf(" %20" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", t->count,
	       t->enabled, t->running);
}

static void on_update(void *ctx, const void *model, int ev,
                      enum sm_action_kind why)
{
	struct printer *p = ctx;
	const struct sm_model *m = model;
	struct perf_event_mmap_page pc;
	struct sm_truth t;

	sm_model_page_after(m, ev, &pc);
	sm_model_truth(m, ev, &t);
	if (p->json)
		print_json(p, m, ev, why, &pc, &t);
	else
		print_row(p, m, ev, why, &pc, &t);
}

/* The report of `--compare`, printed only once the whole comparison ran:
 * an input over a cap gets one line and no partial report.  *report and
 * *err are malloc'ed (err: at least errlen bytes). */
static int compare_report(const char *path, const char *text,
                          unsigned kernel, char **report, char *err,
                          size_t errlen)
{
	size_t rlen = 0;
	char *name = strdup(path);
	FILE *out = name ? open_memstream(report, &rlen) : NULL;

	if (!out) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(name);
		return -1;
	}
	sm_printable(name); /* the report names the file on stdout */
	int rc = hw_compare_text(name, text, kernel, out, err, errlen);
	if (fclose(out) != 0 && rc >= 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	free(name);
	return rc;
}

static int cmd_model_compare(const char *path, unsigned kernel)
{
	size_t len, errlen = strlen(path) + HW_TRACE_LINE_MAX + 256;
	char *err = malloc(errlen), *report = NULL, *text = NULL;
	int rc = -1;

	if (!err)
		return sm_error("model: out of memory");
	text = sm_read_input(path, SM_TRACE_MAX_BYTES, &len, err, errlen);
	if (!text) {
		sm_error("%s: %s", path, err);
	} else if (memchr(text, '\0', len)) {
		sm_error("%s: file contains a NUL byte", path);
	} else if ((rc = compare_report(path, text, kernel, &report, err,
	                                errlen)) < 0) {
		sm_error("%s", err);
	} else {
		fputs(report, stdout);
	}
	free(report);
	free(text);
	free(err);
	return rc < 0 ? 2 : rc;
}

enum { O_JSON = SM_OPT_LONG, O_COMPARE, O_KERNEL, O_KERNEL_DIFF };

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ "json", no_argument, O_JSON, NULL },
	{ "compare", required_argument, O_COMPARE,
	  "a TRACE (see selfmon hw record)" },
	{ "kernel", required_argument, O_KERNEL, "base or V[,V...]" },
	{ "kernel-diff", required_argument, O_KERNEL_DIFF, "V or A..B" },
	{ 0 },
};

/* --kernel K: 0, or -1 after the error line. */
static int take_kernel(struct printer *p, const char *val)
{
	char why[200];

	if (sm_kernel_parse(val, -1, &p->kernel, why, sizeof(why)) < 0)
		return sm_error("model: %s", why), -1;
	p->kernel_given = true;
	return 0;
}

/* --kernel-diff V|A..B of SCENARIO: the exit status. */
static int kernel_diff(const struct printer *p, const char *path)
{
	char why[200];
	unsigned from, to;
	bool range;

	if (sm_kernel_diff_parse(p->diff, &from, &to, &range, why,
	                         sizeof(why)) < 0)
		return sm_error("model: --kernel-diff: %s", why);
	if (range && p->kernel_given)
		return sm_error("model: --kernel-diff A..B names both kernels: "
		                "--kernel is not for it");
	if (!range && !to)
		return sm_error("model: --kernel-diff needs a version or a "
		                "variant, not base (see 'selfmon list'), or A..B");
	return model_kernel_diff(path, range, range ? from : p->kernel,
	                         p->kernel_given, to, p->json);
}

/* The scenario and the options: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct printer *p,
                      const char **path)
{
	struct sm_opt op;
	const char *compare = NULL;
	int c;

	sm_opt_init(&op, "model", argc, argv, options);
	while ((c = sm_opt_next(&op)) != -1)
		if (c == 'h')
			return fputs(usage, stdout), 0;
		else if (c == SM_OPT_BAD)
			return 2;
		else if (c == O_JSON)
			p->json = true;
		else if (c == O_COMPARE)
			compare = op.arg;
		else if (c == O_KERNEL) {
			if (take_kernel(p, op.arg) < 0)
				return 2;
		}
		else if (c == O_KERNEL_DIFF)
			p->diff = op.arg;
		else if (*path)
			return sm_error("model: unexpected argument '%s' "
			                   "(one scenario at a time)", op.arg);
		else
			*path = op.arg;
	if (compare && *path)
		return sm_error("model: --compare TRACE takes no SCENARIO ('%s')",
		                *path);
	if (compare && p->json)
		return sm_error("model: --json is not for --compare");
	if (compare && p->diff)
		return sm_error("model: --kernel-diff is not for --compare");
	if (compare)
		return cmd_model_compare(compare, p->kernel_given ? p->kernel : 0);
	if (!*path)
		return sm_error("model: missing SCENARIO (see 'selfmon model "
		                   "--help')");
	return p->diff ? kernel_diff(p, *path) : -1;
}

/* Play the scenario through the model, printing each page update. */
static int play(const char *path, struct printer *p, struct sm_scenario *scn)
{
	char err[1024];

	if (sm_scenario_open(path, scn, err, sizeof(err)) < 0)
		return sm_error("%s", err);
	if (p->kernel_given &&
	    sm_kernel_check_arch(p->kernel, scn->cfg.arch, err, sizeof(err)) < 0)
		return sm_error("model: %s: %s", path, err);
	if (p->kernel_given)
		scn->cfg.kernel = p->kernel;
	if (!p->json && (p->kernel_given || scn->cfg.kernel))
		printf("kernel %s\n", sm_kernel_text(scn->cfg.kernel, err,
		                                      sizeof(err)));
	p->s = scn;
	struct sm_model *m = sm_model_new(&scn->cfg, on_update, p, err,
	                                  sizeof(err));
	if (!m)
		return sm_error("%s: %s", path, err);
	/* loading checked the run stays within the cap: no partial output */
	int rc = sm_scenario_run(m, scn, scn->end, err, sizeof(err));
	sm_model_free(m);
	return rc < 0 ? sm_error("%s", err) : 0;
}

int cmd_model(int argc, char **argv)
{
	struct printer p = { 0 };
	const char *path = NULL;
	int rc = parse_args(argc, argv, &p, &path);

	if (rc >= 0)
		return rc;
	struct sm_scenario *scn = malloc(sizeof(*scn));
	rc = scn ? play(path, &p, scn) : sm_error("model: out of memory");
	free(scn);
	return rc;
}
