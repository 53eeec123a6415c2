/*
 * report.c — JUnit XML and TAP 13 of check's cells (see report.h).
 *
 * JUnit: one <testsuite> per arch, one <testcase> per reader x scenario
 * (classname "selfmon.NAME.ARCH", junit_classname(), name the scenario;
 * NAME the reader's, sm_cell_report_name()); a failed reader is a
 * <failure> whose text holds the counterexample and the replay command,
 * selfmon's own error an <error>, INCOMPLETE and UNSUPPORTED a <skipped>
 * with the reason.  TAP: a plan, "ok"/"not ok" per cell in the same
 * order ("ARCH NAME SCENARIO: VERDICT"), "# SKIP" for INCOMPLETE and
 * UNSUPPORTED, and a YAML block of the details (the reader's whole
 * name among them) under every cell that did not simply pass.  Every string that
 * came from the user (reader paths, scenario files, details quoting
 * them) is escaped for its place; bytes XML cannot carry (control bytes,
 * invalid UTF-8) are written as '?'.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "markup.h"
#include "report.h"

/* s as a YAML double-quoted scalar. */
static void yaml_put(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	fputc('"', f);
	while (*s) {
		unsigned n = sm_utf8_len(s);
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (n == 0 || *s < 0x20 || *s == 0x7f)
			fprintf(f, "\\x%02x", *s);
		else
			fwrite(s, 1, n, f);
		s += n ? n : 1;
	}
	fputc('"', f);
}

/* s in a TAP description: '#' would start a directive, a newline a line. */
static void tap_put(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	for (; *s; s++)
		if (*s == '#' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else
			fputc(*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

/* The replay command's program: what sm_report_set_program() was given. */
static char program[PATH_MAX] = "selfmon";

void sm_report_set_program(const char *path)
{
	if (path && *path && strlen(path) < sizeof(program))
		strcpy(program, path);
}

/* len bytes of s at o + *at (o NULL: only counted). */
static void put(char *o, size_t *at, const char *s, size_t len)
{
	if (o)
		memcpy(o + *at, s, len);
	*at += len;
}

/* s in single quotes for a POSIX shell (a quote in it as '\''), into o
 * (NULL: only measured): the length. */
static size_t quoted(char *o, const char *s)
{
	size_t n = 0;

	put(o, &n, "'", 1);
	for (const char *c = s; *c; c++)
		if (*c == '\'')
			put(o, &n, "'\\''", 4);
		else
			put(o, &n, c, 1);
	put(o, &n, "'", 1);
	return n;
}

/* s as one word of a POSIX shell: as it is when no byte of it means
 * anything to a shell, else quoted(). */
static size_t shell_word(char *o, const char *s)
{
	size_t n = 0, len = strlen(s);

	if (!len || strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                      "0123456789/._+-:@,%") != len)
		return quoted(o, s);
	put(o, &n, s, len);
	return n;
}

char *sm_report_replay(const char *line)
{
	size_t n = shell_word(NULL, program) + quoted(NULL, line) +
	           strlen(" replay  --explain") + 1;
	char *out = malloc(n);

	if (!out)
		return NULL;
	size_t at = shell_word(out, program);
	put(out, &at, " replay ", 8);
	at += quoted(out + at, line);
	strcpy(out + at, " --explain");
	return out;
}

static bool has(const char *s)
{
	return s && *s;
}

/* The cell's wrong values (none for selfmon's error or another verdict). */
static unsigned nwrong(const struct sm_cell_report *c)
{
	const struct sm_result *r = &c->res;

	return c->error || r->verdict != SM_V_WRONG_VALUE ? 0
	       : r->nwrong < 3 ? r->nwrong : 3;
}

/* A fault's kind's name, or NULL: none. */
static const char *fault(const struct sm_cell_report *c)
{
	const struct sm_result *r = &c->res;

	return !c->error && r->verdict == SM_V_FAULT && r->fault != SM_FK_NONE
	       ? sm_fault_kind_name(r->fault) : NULL;
}

/* The counterexample's lines, for a failure's text and TAP's YAML. */
static void junit_cex(FILE *f, const struct sm_cell_report *c)
{
	fputs("counterexample: ", f);
	sm_xml_put(f, c->found);
	fputs("&#10;minimised: ", f);
	sm_xml_put(f, c->min);
	char *replay = sm_report_replay(c->min);
	fputs("&#10;replay: ", f);
	sm_xml_put(f, replay ? replay : "(out of memory)");
	free(replay);
	if (has(c->trace)) {
		fputs("&#10;trace: ", f);
		sm_xml_put(f, c->trace);
	}
}

static void junit_result(FILE *f, const struct sm_cell_report *c)
{
	static const char *const tag[] = {
		[SM_CASE_FAILURE] = "failure", [SM_CASE_ERROR] = "error",
		[SM_CASE_SKIPPED] = "skipped",
	};

	if (sm_cell_report_kind(c) == SM_CASE_PASS)
		return;
	fprintf(f, "      <%s message=\"", tag[sm_cell_report_kind(c)]);
	sm_xml_put(f, sm_cell_report_verdict(c));
	if (sm_cell_report_kind(c) == SM_CASE_FAILURE && strcmp(sm_cell_report_expected(c), "-")) {
		fputs(", expected ", f);
		sm_xml_put(f, sm_cell_report_expected(c));
	}
	if (sm_cell_report_kind(c) == SM_CASE_SKIPPED)
		fputs(strcmp(sm_cell_report_verdict(c), "INCOMPLETE")
		      ? " (an instruction the emulator cannot run)"
		      : " (not every schedule judged)", f);
	fputs(": ", f);
	sm_xml_put(f, c->detail);
	if (sm_cell_report_kind(c) == SM_CASE_SKIPPED) {
		fputs("\"/>\n", f);
		return;
	}
	fputs("\" type=\"", f);
	sm_xml_put(f, sm_cell_report_verdict(c));
	fputs("\">", f);
	sm_xml_put(f, c->detail);
	if (has(c->min)) {
		fputs("&#10;", f);
		junit_cex(f, c);
	}
	fprintf(f, "</%s>\n", tag[sm_cell_report_kind(c)]);
}

/* The result's fields as "key=value" words: one line per wrong value,
 * one for a fault (JUnit's system-out; TAP has them as YAML). */
static void junit_fields(FILE *f, const struct sm_cell_report *c)
{
	for (unsigned i = 0; i < nwrong(c); i++) {
		const struct sm_wrong *w = &c->res.wrong[i];
		fputs("&#10;wrong: field=", f);
		sm_xml_put(f, sm_wrong_field_name(w->field));
		if (w->field == SM_WF_RC) {
			fprintf(f, " value=%" PRId64, (int64_t)w->value);
			continue;
		}
		fprintf(f, " value=%" PRIu64 " truth_lo=%" PRIu64 " truth_hi=%"
		        PRIu64, w->value, w->truth_lo, w->truth_hi);
		if (w->offset_bits) {
			fprintf(f, " offset_bits=%u offset=", w->offset_bits);
			sm_xml_put(f, w->above ? "above" : "below");
			fputs(" cause=", f);
			sm_xml_put(f, sm_cause_name(w->cause));
		}
	}
	if (fault(c)) {
		fputs("&#10;fault: kind=", f);
		sm_xml_put(f, fault(c));
		if (c->res.has_pc)
			fprintf(f, " pc=0x%" PRIx64, c->res.fault_pc);
		if (c->res.has_addr)
			fprintf(f, " address=0x%" PRIx64, c->res.fault_addr);
	}
}

/* The JUnit classname, "selfmon.NAME.ARCH": Jenkins splits a classname
 * at its last '.' into a package and a class, so a reader is a package
 * (selfmon.NAME) of one class per arch, its scenarios the tests.  In
 * NAME, what is not a letter, digit, '_' or '-' (a '.' would make
 * another package level) is written '_'. */
static void junit_classname(FILE *f, const struct sm_cell_report *c)
{
	fputs("selfmon.", f);
	for (const char *p = sm_cell_report_name(c); *p; p++)
		fputc((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' ? *p : '_', f);
	fprintf(f, ".%s", sm_arch_name(c->arch));
}

static void junit_case(FILE *f, const struct sm_cell_report *c)
{
	fputs("    <testcase classname=\"", f);
	junit_classname(f, c);
	fputs("\" name=\"", f);
	sm_xml_put(f, c->scenario);
	fprintf(f, "\" time=\"%.3f\">\n", c->seconds);
	junit_result(f, c);
	fputs("      <system-out>reader ", f);
	sm_xml_put(f, c->reader);
	fputs("; verdict ", f);
	sm_xml_put(f, sm_cell_report_verdict(c));
	fputs(", expected ", f);
	sm_xml_put(f, sm_cell_report_expected(c));
	fprintf(f, "; abi ");
	sm_xml_put(f, c->abi);
	fprintf(f, "; %" PRIu64 " schedules, %" PRIu64 " blocked, %" PRIu64
	        " on the counter path", c->schedules, c->blocked, c->counter_path);
	junit_fields(f, c);
	fputs("</system-out>\n    </testcase>\n", f);
}

struct counts {
	unsigned tests, kind[4];
	double seconds;
};

/* The cases of arch (-1: of every arch). */
static struct counts count(const struct sm_sweep_report *r, int arch)
{
	struct counts n = { 0 };

	for (size_t i = 0; i < r->n; i++) {
		const struct sm_cell_report *c = &r->cells[i];
		if (arch >= 0 && (int)c->arch != arch)
			continue;
		n.tests++;
		n.kind[sm_cell_report_kind(c)]++;
		n.seconds += c->seconds;
	}
	return n;
}

static void junit_counts(FILE *f, const struct counts *n)
{
	fprintf(f, " tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" "
	        "time=\"%.3f\"", n->tests, n->kind[SM_CASE_FAILURE],
	        n->kind[SM_CASE_ERROR], n->kind[SM_CASE_SKIPPED], n->seconds);
}

/* Was arch already given its suite by an earlier case? */
static bool seen(const struct sm_sweep_report *r, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (r->cells[k].arch == r->cells[i].arch)
			return true;
	return false;
}

static void junit_suite(FILE *f, const struct sm_sweep_report *r,
                        enum sm_arch arch)
{
	struct counts n = count(r, (int)arch);

	fputs("  <testsuite name=\"selfmon check ", f);
	sm_xml_put(f, sm_arch_name(arch));
	fputc('"', f);
	junit_counts(f, &n);
	fprintf(f, ">\n    <properties>\n"
	        "      <property name=\"engine\" value=\"");
	sm_xml_put(f, r->engine);
	fprintf(f, "\"/>\n      <property name=\"bound\" value=\"%" PRIu64
	        "\"/>\n      <property name=\"random\" value=\"%" PRIu64
	        "\"/>\n    </properties>\n", r->bound, r->random);
	for (size_t i = 0; i < r->n; i++)
		if (r->cells[i].arch == arch)
			junit_case(f, &r->cells[i]);
	fputs("  </testsuite>\n", f);
}

int sm_report_junit(FILE *f, const struct sm_sweep_report *r)
{
	struct counts n = count(r, -1);

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<testsuites name=\"selfmon check\"", f);
	junit_counts(f, &n);
	fputs(">\n", f);
	for (size_t i = 0; i < r->n; i++)
		if (!seen(r, i))
			junit_suite(f, r, r->cells[i].arch);
	fputs("</testsuites>\n", f);
	return ferror(f) ? -1 : 0;
}

static void yaml_field(FILE *f, const char *key, const char *val)
{
	if (!val)
		return;
	fprintf(f, "  %s: ", key);
	yaml_put(f, val);
	fputc('\n', f);
}

static void tap_yaml(FILE *f, const struct sm_cell_report *c)
{
	static const char *const severity[] = {
		[SM_CASE_FAILURE] = "fail", [SM_CASE_ERROR] = "error",
		[SM_CASE_SKIPPED] = "skip",
	};

	fputs("  ---\n", f);
	fprintf(f, "  severity: %s\n", severity[sm_cell_report_kind(c)]);
	yaml_field(f, "verdict", sm_cell_report_verdict(c));
	yaml_field(f, "expected", sm_cell_report_expected(c));
	yaml_field(f, "arch", sm_arch_name(c->arch));
	yaml_field(f, "reader", c->reader);
	yaml_field(f, "abi", c->abi);
	yaml_field(f, "scenario", c->scenario);
	yaml_field(f, "detail", c->detail);
	if (nwrong(c))
		fputs("  wrong:\n", f);
	for (unsigned i = 0; i < nwrong(c); i++) {
		const struct sm_wrong *w = &c->res.wrong[i];
		fprintf(f, "    - field: %s\n", sm_wrong_field_name(w->field));
		if (w->field == SM_WF_RC) {
			fprintf(f, "      value: %" PRId64 "\n", (int64_t)w->value);
			continue;
		}
		fprintf(f, "      value: %" PRIu64 "\n      truth_lo: %" PRIu64
		        "\n      truth_hi: %" PRIu64 "\n", w->value, w->truth_lo,
		        w->truth_hi);
		if (w->offset_bits)
			fprintf(f, "      offset_bits: %u\n      offset: %s\n"
			        "      cause: %s\n", w->offset_bits,
			        w->above ? "above" : "below", sm_cause_name(w->cause));
	}
	if (fault(c)) {
		fprintf(f, "  fault:\n    kind: %s\n", fault(c));
		if (c->res.has_pc)
			fprintf(f, "    pc: 0x%" PRIx64 "\n", c->res.fault_pc);
		if (c->res.has_addr)
			fprintf(f, "    address: 0x%" PRIx64 "\n", c->res.fault_addr);
	}
	fprintf(f, "  schedules: %" PRIu64 "\n  blocked: %" PRIu64 "\n"
	        "  counter_path: %" PRIu64 "\n", c->schedules, c->blocked,
	        c->counter_path);
	if (has(c->min)) {
		char *replay = sm_report_replay(c->min);
		yaml_field(f, "counterexample", c->found);
		yaml_field(f, "minimised", c->min);
		yaml_field(f, "replay", replay ? replay : "(out of memory)");
		free(replay);
	}
	if (has(c->trace))
		yaml_field(f, "trace", c->trace);
	fputs("  ...\n", f);
}

int sm_report_tap(FILE *f, const struct sm_sweep_report *r)
{
	fprintf(f, "TAP version 13\n1..%zu\n", r->n);
	for (size_t i = 0; i < r->n; i++) {
		const struct sm_cell_report *c = &r->cells[i];
		bool ok = sm_cell_report_kind(c) == SM_CASE_PASS || sm_cell_report_kind(c) == SM_CASE_SKIPPED;
		fprintf(f, "%s %zu - ", ok ? "ok" : "not ok", i + 1);
		tap_put(f, sm_arch_name(c->arch));
		fputc(' ', f);
		tap_put(f, sm_cell_report_name(c));
		fputc(' ', f);
		tap_put(f, c->scenario);
		fputs(": ", f);
		tap_put(f, sm_cell_report_verdict(c));
		if (sm_cell_report_kind(c) == SM_CASE_FAILURE && strcmp(sm_cell_report_expected(c), "-")) {
			fputs(", expected ", f);
			tap_put(f, sm_cell_report_expected(c));
		}
		if (sm_cell_report_kind(c) == SM_CASE_SKIPPED)
			fputs(strcmp(sm_cell_report_verdict(c), "INCOMPLETE")
			      ? " # SKIP an instruction the emulator cannot run"
			      : " # SKIP not every schedule judged", f);
		fputc('\n', f);
		if (sm_cell_report_kind(c) != SM_CASE_PASS)
			tap_yaml(f, c);
	}
	return ferror(f) ? -1 : 0;
}
