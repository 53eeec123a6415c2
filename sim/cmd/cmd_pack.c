/*
 * cmd_pack.c — `selfmon pack TRACE -o FILE`: one self-contained file of a
 * counterexample (cex_pack.h) that `selfmon replay FILE` runs on another
 * machine, in another clone, after the object was rebuilt or deleted.
 *
 * Owns: gathering the parts (the trace's own bytes, the scenario file,
 * the user's reader object) and refusing to pack any that is not the one
 * the trace records by its hash; the output written whole or not at all
 * (outfile.c).  A built-in reader is not packed: its code is selfmon's,
 * and replay holds the replaying selfmon's code to the trace's hash.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundled.h"
#include "cex_files.h"
#include "cex_pack.h"
#include "cex_trace.h"
#include "commands.h"
#include "input.h"
#include "options.h"
#include "outfile.h"
#include "schedule_line.h"

static const char usage[] =
	"usage: selfmon pack TRACE -o FILE\n\n"
	"Writes one file holding the counterexample TRACE (a file check\n"
	"wrote), the scenario's text and, for a reader of yours\n"
	"(PATH:SYMBOL), its object file, so that 'selfmon replay FILE' runs\n"
	"it anywhere: on another machine, in another clone, after the object\n"
	"was rebuilt or removed.  Each part must still be the one the trace\n"
	"records by its SHA-256.  A built-in reader's code is not packed: it\n"
	"is selfmon's own, and replay checks that it is the same.\n"
	"Exit status: 0 written, 2 bad input or a part that changed.\n";

/* The file at path (within max bytes) whose SHA-256 must be want: its
 * bytes (free() them), or NULL with one line in err. */
static char *read_part(const char *path, size_t max, const char *what,
                       const char *want, size_t *len, char *err, size_t n)
{
	char why[256], got[SM_SHA256_HEX];
	char *bytes = sm_read_input(path, max, len, why, sizeof(why));

	if (!bytes)
		return snprintf(err, n, "%s: %s", path, why), NULL;
	sm_sha256_hex(bytes, *len, got);
	if (strcmp(got, want)) {
		free(bytes);
		return snprintf(err, n, "%s %s differs from the one the trace was "
		                "found with (SHA-256 %.12s..., the trace records "
		                "%.12s...)", what, path, got, want), NULL;
	}
	return bytes;
}

/* The parts of the trace at `trace` into pk: 0, or -1 with one line in
 * err. */
static int gather(const char *trace, struct sm_cex_pack *pk, char *err,
                  size_t n)
{
	struct sm_cex_trace t;
	struct sm_schedule_line sl;
	char why[256], path[PATH_MAX], got[SM_SHA256_HEX];
	int rc = -1;

	if (sm_cex_trace_load(trace, &t, err, n) < 0)
		return -1;
	if (sm_schedule_parse(t.schedule, &sl, err, n) < 0) {
		sm_cex_trace_free(&t);
		return -1;
	}
	bool user = sm_cex_user_path(sl.reader, path, sizeof(path));
	if (!t.scenario || (user && !t.object))
		snprintf(err, n, "%s: records no hash of its %s (a trace of an "
		         "older selfmon: run check again)", trace,
		         !t.scenario ? "scenario" : "reader object");
	else if (!(pk->version = strdup(SELFMON_VERSION)))
		snprintf(err, n, "out of memory");
	else if (!(pk->trace = sm_read_input(trace, SM_TRACE_MAX_BYTES,
	                                     &pk->trace_len, why, sizeof(why))))
		snprintf(err, n, "%s: %s", trace, why);
	else {
		char scn[PATH_MAX];
		if (sm_scenario_resolve(sl.scenario, scn, sizeof(scn)) < 0)
			snprintf(err, n, "%s: path too long", sl.scenario);
		else if (!(pk->scenario = read_part(scn, SM_SCENARIO_MAX_BYTES,
		                                    "the scenario", t.scenario,
		                                    &pk->scenario_len, err, n)))
			;
		else if (user && !(pk->object = (uint8_t *)read_part(
		                        path, SM_ELF_MAX_BYTES, "the reader object",
		                        t.object, &pk->object_len, err, n)))
			;
		else if (!user && t.object &&
		         sm_cex_object_hash(sl.reader, sl.arch, sl.engine, got, err,
		                            n) == 0 && strcmp(got, t.object))
			snprintf(err, n, "%s: this selfmon's built-in reader code is "
			         "not the one the trace was found with (selfmon %s "
			         "wrote it)", trace, t.version ? t.version : "?");
		else
			rc = 0;
	}
	sm_schedule_line_free(&sl);
	sm_cex_trace_free(&t);
	return rc;
}

static const struct sm_optdef options[] = {
	{ "help", no_argument, 'h', NULL },
	{ NULL, required_argument, 'o', "a FILE" },
	{ 0 },
};

int cmd_pack(int argc, char **argv)
{
	const char *trace = NULL, *out = NULL;
	struct sm_cex_pack pk = { 0 };
	char err[PATH_MAX + 512];
	struct sm_opt op;
	struct sm_out o;
	int c;

	sm_opt_init(&op, "pack", argc, argv, options);
	while ((c = sm_opt_next(&op)) != -1)
		if (c == 'h')
			return fputs(usage, stdout), 0;
		else if (c == SM_OPT_BAD)
			return 2;
		else if (c == 'o')
			out = op.arg;
		else if (trace)
			return sm_error("pack: unexpected argument '%s'", op.arg);
		else
			trace = op.arg;
	if (!trace || !out)
		return sm_error("pack: needs TRACE and -o FILE (see 'selfmon pack "
		                "--help')");
	int rc = 0;
	if (gather(trace, &pk, err, sizeof(err)) < 0)
		rc = sm_error("pack: %s", err);
	else if (sm_out_open(&o, out, err, sizeof(err)) < 0)
		rc = sm_error("pack: %s: %s", out, err);
	else if (sm_cex_pack_write(o.f, &pk) < 0) {
		sm_out_abort(&o);
		rc = sm_error("pack: %s: write error", out);
	} else if (sm_out_close(&o, err, sizeof(err)) < 0)
		rc = sm_error("pack: %s: %s", out, err);
	sm_cex_pack_free(&pk);
	return rc;
}
