/*
 * test_srctext.c — the source text in `replay --explain`: under each
 * "FILE:LINE" of the listing, that line's text ("| TEXT"), before the
 * first instruction of the line, as objdump -S shows it.
 *
 * The built-in readers' on every arch built, from the copies embedded in
 * selfmon (no file of the source tree is opened), each held against the
 * reader's file at the file:line the listing names, as this test reads
 * it; a user's reader built here with -g, its source beside it; and that
 * source missing, huge, binary, a FIFO, a symbolic link or shorter than
 * its line table, or its files over the cap of one listing: file:line
 * stays, one note says why, the verdict is the same.  The JSON document
 * carries the same text (src_text, src_note).
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "cli.h"

#define RESET "x86_64:unicorn:no_zero_ext_fix:x86_reset:reset@10"

static void read_text(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot read %s", path);
	size_t k = fread(buf, 1, n - 1, f);
	buf[k] = '\0';
	fclose(f);
}

/* Line `line` (from 1) of the file at path into out, tabs expanded to
 * stops of 8 and a trailing CR dropped (written here apart from
 * srctext.c); false when the file has fewer lines. */
static bool file_line(const char *path, int line, char *out, size_t n)
{
	static char text[1 << 20];
	read_text(path, text, sizeof(text));
	const char *p = text;
	for (int k = 1; k < line; k++) {
		p = strchr(p, '\n');
		if (!p)
			return false;
		p++;
	}
	if (!*p)
		return false;
	size_t o = 0, col = 0;
	for (; *p && *p != '\n' && o + 9 < n; p++) {
		if (*p == '\r' && (p[1] == '\n' || !p[1]))
			break;
		if (*p == '\t') {
			do
				out[o++] = ' ';
			while (++col % 8);
			continue;
		}
		out[o++] = *p;
		col += ((unsigned char)*p & 0xc0) != 0x80;
	}
	out[o] = '\0';
	return true;
}

/* The file a listing names: as it is when absolute, else from the top of
 * the source tree (the built-in readers' "reader/..."). */
static void resolve(const char *file, char *out, size_t n)
{
	if (file[0] == '/')
		snprintf(out, n, "%s", file);
	else
		snprintf(out, n, "%s/%s", SELFMON_SRC, file);
}

/* "          FILE:LINE" (no blank in FILE): FILE into file, the line. */
static int where_line(const char *l, char *file, size_t n)
{
	if (strncmp(l, "          ", 10) || l[10] == ' ' || strchr(l + 10, ' '))
		return 0;
	const char *colon = strrchr(l + 10, ':');
	if (!colon || !colon[1] || strspn(colon + 1, "0123456789") !=
	    strlen(colon + 1))
		return 0;
	snprintf(file, n, "%.*s", (int)(colon - l - 10), l + 10);
	return atoi(colon + 1);
}

struct tally {
	unsigned shown;   /* FILE:LINE with its text, the text right */
	unsigned without; /* FILE:LINE with no text under it */
	unsigned notes;   /* "(source of FILE not shown: ...)" */
};

/* Each "FILE:LINE" of the listing whose FILE contains `only` ("": all):
 * the line after it, when it is "| TEXT", must be the file's line. */
static struct tally check_listing(const char *listing, const char *only)
{
	static char copy[1 << 20];
	char file[1024], path[1200], want[512];
	struct tally t = { 0, 0, 0 };
	char *save = NULL;
	snprintf(copy, sizeof(copy), "%s", listing);
	for (char *l = strtok_r(copy, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		int line = where_line(l, file, sizeof(file));
		if (!line || !strstr(file, only))
			continue;
		char *next = save && *save ? save : "";
		if (!strncmp(next, "          (source of ", 21))
			t.notes++;
		if (strncmp(next, "          | ", 12)) {
			t.without++;
			continue;
		}
		resolve(file, path, sizeof(path));
		if (!file_line(path, line, want, sizeof(want)))
			fail_msg("%s:%d: the file has no such line", path, line);
		size_t len = strcspn(next + 12, "\n");
		if (len != strlen(want) || strncmp(next + 12, want, len))
			fail_msg("%s:%d is\n  '%s'\nthe listing shows\n  '%.*s'", path,
			         line, want, (int)len, next + 12);
		t.shown++;
	}
	return t;
}

/* The built-in readers' listings on each arch built: every file:line
 * has its text, and it is the file's. */
static void test_builtin_each_arch(void **state)
{
	static const char *const arches[][2] = {
		{ "x86_64", "x86_pinned" }, { "arm64", "arm64_bias" },
		{ "riscv64", "riscv64" },
	};
	static const char *const readers[] = { "reference", "no_zero_ext_fix" };
	char args[256];
	(void)state;
	for (size_t a = 0; a < sizeof(arches) / sizeof(arches[0]); a++) {
		if (!arch_built(arches[a][0])) {
			print_message("%s not built: skipped\n", arches[a][0]);
			continue;
		}
		for (size_t k = 0; k < sizeof(readers) / sizeof(readers[0]); k++) {
			snprintf(args, sizeof(args), "replay %s:unicorn:%s:%s:- --explain",
			         arches[a][0], readers[k], arches[a][1]);
			run(args);
			assert_true(r.status == 0 || r.status == 1);
			struct tally t = check_listing(r.out, "");
			if (t.shown < 10 || t.without || t.notes)
				fail_msg("%s: %u lines shown, %u without text, %u notes:\n"
				         "%.3000s", args, t.shown, t.without, t.notes, r.out);
		}
	}
	/* the listing's base.h lines come from the same text */
	run("replay " RESET " --explain");
	assert_int_equal(r.status, 1);
	assert_true(check_listing(r.out, "reader/variants/base.h").shown > 0);
	assert_true(check_listing(r.out, "no_zero_ext_fix.c").shown > 5);
}

/* The built-in readers' text is selfmon's own: --explain opens no file
 * of the source tree (seen with strace). */
static void test_builtin_reads_no_source(void **state)
{
	static char log[1 << 20];
	char cmd[2048], logf[600], outf[600], pat[1100];
	(void)state;
	if (system("command -v strace >/dev/null 2>&1") != 0) {
		print_message("strace missing: not checked\n");
		skip();
	}
	snprintf(logf, sizeof(logf), "%s/strace.log", tmpdir());
	snprintf(outf, sizeof(outf), "%s/listing.txt", tmpdir());
	snprintf(cmd, sizeof(cmd), "cd / && strace -f -qq -e trace=open,openat "
	         "-o '%s' '%s' replay %s --explain >'%s' 2>&1", logf, SELFMON_BIN,
	         RESET, outf);
	assert_int_not_equal(system(cmd), -1);
	read_text(outf, log, sizeof(log));
	assert_true(check_listing(log, "").shown > 10);
	read_text(logf, log, sizeof(log));
	assert_non_null(strstr(log, "open")); /* strace saw the run */
	snprintf(pat, sizeof(pat), "\"%s/reader/", SELFMON_SRC);
	if (strstr(log, pat) || strstr(log, "/model/page.h\""))
		fail_msg("--explain read the source tree:\n%.2000s", log);
}

/* Unescape a JSON string value at p (up to its closing quote) into out:
 * what the listing's text has (\" \\ and \u00XX). */
static void json_value(const char *p, char *out, size_t n)
{
	size_t o = 0;
	for (; *p && *p != '"' && o + 1 < n; p++) {
		if (*p != '\\') {
			out[o++] = *p;
			continue;
		}
		p++;
		if (*p == 'u') {
			out[o++] = (char)strtol((char[]){ p[1], p[2], p[3], p[4], 0 },
			                        NULL, 16);
			p += 4;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = '\0';
}

/* Every instruction of the JSON document whose src contains `only`:
 * its src_text, unless "" (how many: *empty), is the file's line; how
 * many. */
static unsigned check_json(const char *doc, const char *only,
                           unsigned *empty)
{
	char where[1024], text[512], path[1200], want[512];
	unsigned n = 0;
	for (const char *p = doc; (p = strstr(p, "\"src\":\"")); p++) {
		json_value(p + 7, where, sizeof(where));
		const char *t = strstr(p, ",\"src_text\":\"");
		assert_non_null(t);
		assert_true(t == p + 7 + strcspn(p + 7, "\"") + 1);
		json_value(t + 13, text, sizeof(text));
		char *colon = strrchr(where, ':');
		if (!where[0] || !strstr(where, only) || !colon)
			continue;
		if (!text[0]) {
			(*empty)++;
			continue;
		}
		*colon = '\0';
		resolve(where, path, sizeof(path));
		if (!file_line(path, atoi(colon + 1), want, sizeof(want)))
			fail_msg("%s:%s: no such line", path, colon + 1);
		if (strcmp(text, want))
			fail_msg("%s:%s: src_text '%s', the file '%s'", path, colon + 1,
			         text, want);
		n++;
	}
	return n;
}

static void test_json_src_text(void **state)
{
	char args[256];
	unsigned empty = 0;
	(void)state;
	snprintf(args, sizeof(args), "replay %s --explain --json", RESET);
	run(args);
	assert_int_equal(r.status, 1);
	assert_true(check_json(r.out, "", &empty) > 50);
	assert_int_equal(empty, 0);
	assert_null(strstr(r.out, "\"src_note\":"));
	/* the native engine's routed calls too */
	run("replay x86_64:native:reference:x86_pinned:- --explain --json");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"native\":\"rdpmc("));
	const char *t = strstr(r.out, "\"src_text\":\"");
	assert_non_null(t);
	assert_true(t[12] != '"');
}

/* ---- a user's reader ---- */

static char src[600], orig[600], obj[600], line[1024];
static int status;          /* replay's exit status */
static unsigned wheres;     /* file:line lines naming src */

static void sh(const char *cmd)
{
	if (system(cmd) != 0)
		fail_msg("failed: %s", cmd);
}

/* src as a copy of the no_sext mutant, built with -g into obj, and its
 * counterexample's line. */
static void build_user(void)
{
	char cmd[4096];
	snprintf(src, sizeof(src), "%s/mine.c", tmpdir());
	snprintf(orig, sizeof(orig), "%s/mine.c.orig", tmpdir());
	snprintf(obj, sizeof(obj), "%s/mine.o", tmpdir());
	snprintf(cmd, sizeof(cmd), "cp '%s/reader/variants/no_sext.c' '%s' && "
	         "cp '%s' '%s' && gcc -O2 -g -c -I'%s/reader/variants' "
	         "-I'%s/model' -I'%s/reader' '%s' -o '%s'", SELFMON_SRC, src, src,
	         orig, SELFMON_SRC, SELFMON_SRC, SELFMON_SRC, src, obj);
	sh(cmd);
	snprintf(cmd, sizeof(cmd), "check '%s:selfmon_v_no_sext' --abi values "
	         "--scenario x86_pinned --json --no-traces", obj);
	run(cmd);
	assert_int_equal(r.status, 1);
	const char *m = strstr(r.out, "\"minimised\":\"");
	assert_non_null(m);
	snprintf(line, sizeof(line), "%.*s",
	         (int)(strchr(m + 13, '"') - m - 13), m + 13);
}

static void explain(bool json)
{
	char args[1200];
	snprintf(args, sizeof(args), "replay '%s' --explain%s", line,
	         json ? " --json" : "");
	run(args);
}

static void test_user_source_shown(void **state)
{
	(void)state;
	build_user();
	explain(false);
	status = r.status;
	assert_int_equal(status, 1);
	struct tally t = check_listing(r.out, src);
	if (t.shown < 3 || t.without || t.notes)
		fail_msg("%u lines of %s shown, %u without text, %u notes:\n%.3000s",
		         t.shown, src, t.without, t.notes, r.out);
	wheres = t.shown;
	assert_null(strstr(r.out, "not shown"));
	explain(true);
	unsigned empty = 0;
	assert_true(check_json(r.out, src, &empty) >= wheres);
	assert_int_equal(empty, 0);
}

/* One broken source: the listing keeps its file:line lines without text,
 * says why once, and the verdict stands; so does the JSON. */
static void expect_degraded(const char *what, const char *why)
{
	char note[800];
	explain(false);
	if (r.status != status)
		fail_msg("%s: exit %d, not %d: %s", what, r.status, status, r.err);
	struct tally t = check_listing(r.out, src);
	if (t.shown || t.without != wheres || t.notes != 1)
		fail_msg("%s: %u shown, %u without text (of %u), %u notes:\n%.3000s",
		         what, t.shown, t.without, wheres, t.notes, r.out);
	snprintf(note, sizeof(note), "(source of %s not shown: ", src);
	const char *n = strstr(r.out, note);
	assert_non_null(n);
	if (strncmp(n + strlen(note), why, strlen(why)))
		fail_msg("%s: the note is %.200s", what, n);
	if (strstr(n + strlen(note), "not shown"))
		fail_msg("%s: more than one note", what);
	explain(true);
	assert_int_equal(r.status, status);
	const char *j = strstr(r.out, "\"src_note\":\"source of ");
	assert_non_null(j);
	assert_non_null(strstr(j, why));
	assert_null(strstr(j + 1, "\"src_note\":"));
	unsigned empty = 0;
	assert_int_equal(check_json(r.out, src, &empty), 0);
	assert_true(empty >= wheres);
}

static void restore(void)
{
	char cmd[1300];
	unlink(src);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", orig, src);
	sh(cmd);
}

static void test_user_source_degrades(void **state)
{
	char cmd[1600];
	(void)state;
	if (!wheres)
		skip(); /* the build above failed */
	unlink(src);
	expect_degraded("missing", "No such file or directory");

	/* huge: text over the cap of 1 MiB */
	snprintf(cmd, sizeof(cmd), "yes '/* a comment line of text */' | "
	         "head -c 1100000 > '%s'", src);
	sh(cmd);
	expect_degraded("huge", "file too large");

	/* binary: the source with a NUL byte in it */
	snprintf(cmd, sizeof(cmd), "{ printf 'int x;\\0\\n'; cat '%s'; } > '%s'",
	         orig, src);
	sh(cmd);
	expect_degraded("binary", "not text (a NUL byte at byte 6)");

	/* a FIFO with no writer: refused at once, never waited for */
	unlink(src);
	assert_int_equal(mkfifo(src, 0600), 0);
	expect_degraded("fifo", "not a regular file (a FIFO)");

	/* a symbolic link to the very source */
	unlink(src);
	assert_int_equal(symlink(orig, src), 0);
	expect_degraded("symlink", "a symbolic link (not followed)");

	/* shorter than the line table says */
	unlink(src);
	snprintf(cmd, sizeof(cmd), "head -n 5 '%s' > '%s'", orig, src);
	sh(cmd);
	expect_degraded("short", "line ");
	assert_non_null(strstr(r.out, "is past its end (5 lines"));

	if (geteuid() != 0) { /* root reads anything */
		restore();
		assert_int_equal(chmod(src, 0), 0);
		expect_degraded("unreadable", "Permission denied");
	}
	restore();
	explain(false);
	assert_int_equal(check_listing(r.out, src).shown, wheres);
}

/* A reader whose lines 36.. (its function's body) each come from a file
 * of their own (#line), each file the source padded to just under the
 * cap of one: the listing reads files until they reach the cap of all
 * (8 MiB), shows those, and says once that the rest are not read. */
static void test_user_source_cap(void **state)
{
	static char text[1 << 20];
	char path[700], cmd[4096], base[600], lines[700], o[700], l[1024];
	(void)state;
	snprintf(base, sizeof(base), "%s/reader/variants/no_sext.c", SELFMON_SRC);
	read_text(base, text, sizeof(text));
	snprintf(lines, sizeof(lines), "%s/lines.c", tmpdir());
	FILE *out = fopen(lines, "w");
	assert_non_null(out);
	const char *p = text;
	for (int k = 1; *p; k++) {
		size_t len = strcspn(p, "\n");
		if (k >= 36)
			fprintf(out, "#line %d \"%s/f%d.c\"\n", k, tmpdir(), k);
		fprintf(out, "%.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
		if (k < 36)
			continue;
		snprintf(path, sizeof(path), "%s/f%d.c", tmpdir(), k);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		static const char pad[] = "/* padding up to near 1 MB */\n";
		for (size_t n = strlen(text); n + strlen(pad) < 1000000;
		     n += strlen(pad))
			fputs(pad, f);
		fclose(f);
	}
	fclose(out);
	snprintf(o, sizeof(o), "%s/lines.o", tmpdir());
	snprintf(cmd, sizeof(cmd), "gcc -O2 -g -c -I'%s/reader/variants' "
	         "-I'%s/model' -I'%s/reader' '%s' -o '%s'", SELFMON_SRC,
	         SELFMON_SRC, SELFMON_SRC, lines, o);
	sh(cmd);
	snprintf(cmd, sizeof(cmd), "replay 'x86_64:unicorn:%s#selfmon_v_no_sext"
	         "#values:x86_pinned:-' --explain", o);
	run(cmd);
	assert_int_equal(r.status, 1);
	snprintf(l, sizeof(l), "%s/f", tmpdir());
	struct tally t = check_listing(r.out, l);
	if (t.shown < 3 || t.without < 3 || t.notes != 1)
		fail_msg("%u shown, %u without text, %u notes:\n%.3000s", t.shown,
		         t.without, t.notes, r.out);
	const char *n = strstr(r.out, "not shown: the source files read for one "
	                       "listing are at their cap of 8 MiB");
	assert_non_null(n);
	assert_null(strstr(n + 1, "not shown"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_each_arch),
		cmocka_unit_test(test_builtin_reads_no_source),
		cmocka_unit_test(test_json_src_text),
		cmocka_unit_test(test_user_source_shown),
		cmocka_unit_test(test_user_source_degrades),
		cmocka_unit_test(test_user_source_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
