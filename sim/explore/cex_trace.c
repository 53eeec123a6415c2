/*
 * cex_trace.c — the counterexample trace format (see cex_trace.h): its
 * writer and its reader.
 *
 * Owns: the text of a trace and every check on it as input: its line
 * format (util/lines.c), its keys (a table: what each one's value is and
 * where it goes), each key at most once, the schedule lines well formed
 * (schedule_line.c), the verdict a verdict's name.  Must not run
 * anything or touch the file system beyond reading the one file: `check`
 * decides where a trace goes (and writes it whole, outfile.c), `replay`
 * what to do with it.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cex_trace.h"
#include "input.h"
#include "lines.h"

int sm_cex_trace_write(FILE *f, const char *path,
                       const struct sm_cex_trace *t)
{
	/* one line a field, whatever the text holds: the names were
	 * checked at the door, the detail is made printable */
	char *line = t->detail ? strdup(t->detail) : NULL;

	if (t->detail && !line)
		return -1;
	if (line)
		sm_printable(line);
	fprintf(f, "# selfmon counterexample; re-run it with: selfmon replay %s "
	        "[--explain]\n", path);
	if (t->version)
		fprintf(f, "selfmon %s\n", t->version);
	fprintf(f, "schedule %s\nverdict %s\n", t->schedule,
	        sm_verdict_name((enum sm_verdict)t->verdict));
	if (line)
		fprintf(f, "detail %s\n", line);
	if (t->found)
		fprintf(f, "found %s\n", t->found);
	if (t->object)
		fprintf(f, "object %s\n", t->object);
	if (t->scenario)
		fprintf(f, "scenario %s\n", t->scenario);
	free(line);
	return 0;
}

/* ---- reading ---------------------------------------------------------- */

static const struct sm_line_format cex_lines = {
	.max_len = SM_CEX_LINE_MAX, .blanks = " ", .comment = SM_COMMENT_LINE,
	.controls_noun = "trace",
};

enum value { VAL_SCHEDULE, VAL_VERDICT, VAL_TEXT, VAL_HASH };

static const struct key {
	const char *name;
	enum value value;
	size_t off;          /* of the char * (VAL_VERDICT: the int) */
} keys[] = {
	{ "schedule", VAL_SCHEDULE, offsetof(struct sm_cex_trace, schedule) },
	{ "verdict", VAL_VERDICT, offsetof(struct sm_cex_trace, verdict) },
	{ "detail", VAL_TEXT, offsetof(struct sm_cex_trace, detail) },
	{ "found", VAL_SCHEDULE, offsetof(struct sm_cex_trace, found) },
	{ "selfmon", VAL_TEXT, offsetof(struct sm_cex_trace, version) },
	{ "object", VAL_HASH, offsetof(struct sm_cex_trace, object) },
	{ "scenario", VAL_HASH, offsetof(struct sm_cex_trace, scenario) },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* "PASS, BLOCKED, ... or UNSUPPORTED" */
static const char *verdict_names(char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int v = 0; v < SM_NVERDICTS && used < n; v++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s",
		                         !v ? "" : v == SM_NVERDICTS - 1 ? " or "
		                         : ", ", sm_verdict_name((enum sm_verdict)v));
	return buf;
}

/* The value (text, at column col) of key k into t. */
static int take(struct sm_lines *r, const struct key *k, char *text,
                unsigned col, struct sm_cex_trace *t)
{
	char why[512], names[200];
	struct sm_schedule_line sl;

	switch (k->value) {
	case VAL_VERDICT:
		if ((*(int *)((char *)t + k->off) = sm_verdict_from_name(text)) < 0)
			return sm_line_fail(r, col, "bad value '%s' for verdict "
			                    "(expected %s)", text,
			                    verdict_names(names, sizeof(names)));
		free(text);
		return 0;
	case VAL_SCHEDULE:
		if (sm_schedule_parse(text, &sl, why, sizeof(why)) < 0)
			return sm_line_fail(r, col, "%s", why);
		sm_schedule_line_free(&sl);
		break;
	case VAL_HASH:
		if (strlen(text) != 64 || strspn(text, "0123456789abcdef") != 64)
			return sm_line_fail(r, col, "bad %s hash '%s' (expected "
			                    "SHA-256 as 64 lowercase hex digits)",
			                    k->name, text);
		break;
	case VAL_TEXT:
		break;
	}
	*(char **)((char *)t + k->off) = text;
	return 0;
}

/* The current line: KEY VALUE. */
static int parse_line(struct sm_lines *r, unsigned seen[NKEYS],
                      struct sm_cex_trace *t)
{
	const struct sm_tok *key = &r->tok[0];
	int i = sm_keys_find(SM_KEYS(keys, name), key->s);
	unsigned col = key->col + (unsigned)strlen(key->s) + 1;
	size_t len;
	const char *v = sm_line_rest(r, col, &len);
	char *text;

	if (i < 0)
		return sm_line_fail(r, key->col, "unknown key '%s' in a "
		                    "counterexample trace (expected schedule, "
		                    "verdict, detail, found, selfmon, object or "
		                    "scenario)", key->s);
	if (seen[i])
		return sm_line_fail(r, key->col, "duplicate '%s' (line %u has "
		                    "one)", key->s, seen[i]);
	seen[i] = r->lineno;
	if (!(text = strndup(v, len)))
		return sm_lines_fail(r, "out of memory");
	if (take(r, &keys[i], text, col, t) < 0) {
		free(text);
		return -1;
	}
	return 0;
}

int sm_cex_trace_parse(const char *name, const char *text,
                       struct sm_cex_trace *t, char *err, size_t n)
{
	struct sm_lines r;
	unsigned seen[NKEYS] = { 0 };
	int rc;

	memset(t, 0, sizeof(*t));
	t->verdict = -1;
	sm_lines_init(&r, &cex_lines, name, text, err, n);
	while ((rc = sm_lines_next(&r)) == 1 && parse_line(&r, seen, t) == 0)
		;
	if (rc == 0 && !t->schedule)
		rc = sm_line_fail(&r, r.endcol, "missing 'schedule' line (not a "
		                  "counterexample trace of 'selfmon check')");
	sm_lines_free(&r);
	if (rc != 0)
		sm_cex_trace_free(t);
	return rc != 0 ? -1 : 0;
}

int sm_cex_trace_load(const char *path, struct sm_cex_trace *t, char *err,
                      size_t n)
{
	char why[256];
	size_t len;
	char *text = sm_read_input(path, SM_TRACE_MAX_BYTES, &len, why,
	                           sizeof(why));
	int rc;

	memset(t, 0, sizeof(*t));
	t->verdict = -1;
	if (text && memchr(text, '\0', len))
		snprintf(why, sizeof(why), "file contains a NUL byte");
	if (!text || memchr(text, '\0', len)) {
		snprintf(err, n, "%s: %s", path, why);
		free(text);
		return -1;
	}
	rc = sm_cex_trace_parse(path, text, t, err, n);
	free(text);
	return rc;
}

void sm_cex_trace_free(struct sm_cex_trace *t)
{
	free(t->schedule);
	free(t->detail);
	free(t->found);
	free(t->version);
	free(t->object);
	free(t->scenario);
	t->schedule = t->detail = t->found = NULL;
	t->version = t->object = t->scenario = NULL;
}
