/*
 * test_lines.c — the line formats' common reader (util/lines.c): lines
 * and their numbers, tokens and their columns, comments, the checks on a
 * line, positional words, key tables and KEY=VALUE tokens, and the one
 * error form "NAME:LINE:COL: message".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"

static const struct sm_line_format scn_like = {
	.max_len = 32, .blanks = " \t\r", .comment = SM_COMMENT_ANYWHERE,
};
static const struct sm_line_format trace_like = {
	.max_len = 64, .blanks = " ", .comment = SM_COMMENT_LINE,
	.controls_noun = "trace", .max_tokens = 3,
};

static char err[256];

/* The first line with tokens of `text` in r (1 expected). */
static void first(struct sm_lines *r, const struct sm_line_format *f,
                  const char *text)
{
	sm_lines_init(r, f, "t.txt", text, err, sizeof(err));
	assert_int_equal(sm_lines_next(r), 1);
}

static void test_lines_and_columns(void **state)
{
	struct sm_lines r;
	(void)state;

	sm_lines_init(&r, &scn_like, "t.txt",
	              "\n# note\n  at\t12  reset # why\r\n\nend 5", err,
	              sizeof(err));
	assert_int_equal(sm_lines_next(&r), 1);
	assert_int_equal(r.lineno, 3);
	assert_int_equal(r.ntok, 3);
	assert_string_equal(r.tok[0].s, "at");
	assert_int_equal(r.tok[0].col, 3);
	assert_string_equal(r.tok[1].s, "12"); /* a tab is one column */
	assert_int_equal(r.tok[1].col, 6);
	assert_string_equal(r.tok[2].s, "reset");
	assert_int_equal(r.tok[2].col, 10);
	assert_int_equal(r.endcol, 15); /* after "reset", before the comment */
	assert_int_equal(sm_lines_next(&r), 1);
	assert_int_equal(r.lineno, 5);
	assert_string_equal(r.tok[1].s, "5");
	assert_int_equal(sm_lines_next(&r), 0);
	assert_int_equal(r.lineno, 6); /* the end: the line after the last */
	assert_int_equal(r.endcol, 1);
	assert_int_equal(sm_lines_next(&r), 0); /* and it stays there */
	assert_int_equal(r.lineno, 6);
	sm_lines_free(&r);

	sm_lines_init(&r, &scn_like, "t.txt", NULL, err, sizeof(err));
	assert_int_equal(sm_lines_next(&r), 0);
	assert_int_equal(r.lineno, 1);
	sm_lines_free(&r);
}

/* In a trace '#' starts a comment line only; elsewhere it is text. */
static void test_comment_lines(void **state)
{
	struct sm_lines r;
	(void)state;

	first(&r, &trace_like, "  # a comment of many words a b c d e f\n"
	      "detail a#b\r\n");
	assert_int_equal(r.lineno, 2);
	assert_int_equal(r.ntok, 2);
	assert_string_equal(r.tok[1].s, "a#b");
	size_t n;
	const char *rest = sm_line_rest(&r, 8, &n);
	assert_int_equal(n, 3); /* without the "\r" */
	assert_memory_equal(rest, "a#b", 3);
	rest = sm_line_rest(&r, 40, &n);
	assert_int_equal(n, 0);
	sm_lines_free(&r);
}

static void test_line_errors(void **state)
{
	static const struct {
		const struct sm_line_format *f;
		const char *text, *msg;
	} bad[] = {
		{ &scn_like, "ok\n123456789012345678901234567890123\n",
		  "t.txt:2:33: line too long (max 32 bytes)" },
		{ &trace_like, "a b\x1b c\n", "t.txt:1:4: control character in a "
		  "trace line" },
		{ &trace_like, "a\tb\n", "t.txt:1:2: control character in a trace "
		  "line" },
		{ &trace_like, "a b c d e\n", "t.txt:1:7: too many fields (max 3)" },
	};
	struct sm_lines r;
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sm_lines_init(&r, bad[i].f, "t.txt", bad[i].text, err, sizeof(err));
		int rc;
		while ((rc = sm_lines_next(&r)) == 1)
			;
		assert_int_equal(rc, -1);
		assert_string_equal(err, bad[i].msg);
		sm_lines_free(&r);
	}
	/* exactly the limit, and a CRLF line at it, are fine; a tab is a
	 * blank where the format says so */
	first(&r, &scn_like, "12345678901234567890123456789012\r\n\tx\n");
	assert_int_equal(r.len, 32);
	assert_int_equal(sm_lines_next(&r), 1);
	assert_int_equal(r.tok[0].col, 2);
	sm_lines_free(&r);
}

static void test_words_and_fail(void **state)
{
	struct sm_lines r;
	(void)state;

	first(&r, &scn_like, "\n\nevent a=1 ");
	assert_null(sm_line_word(&r, 1, "event name"));
	assert_string_equal(err, "t.txt:3:7: missing event name");
	assert_null(sm_line_word(&r, 2, "thing"));
	assert_string_equal(err, "t.txt:3:10: missing thing"); /* at endcol */
	assert_ptr_equal(sm_line_word(&r, 0, "directive"), &r.tok[0]);
	assert_int_equal(sm_line_no_more(&r, 2), 0);
	assert_int_equal(sm_line_no_more(&r, 1), -1);
	assert_string_equal(err, "t.txt:3:7: unexpected 'a=1'");
	assert_int_equal(sm_line_fail(&r, 4, "x %d", 5), -1);
	assert_string_equal(err, "t.txt:3:4: x 5");
	assert_int_equal(sm_lines_fail(&r, "no %s", "marks"), -1);
	assert_string_equal(err, "t.txt: no marks");
	/* a short buffer is cut, a missing one is no crash */
	char small[8];
	r.err = small;
	r.errlen = sizeof(small);
	sm_line_fail(&r, 1, "a long message");
	assert_string_equal(small, "t.txt:3");
	r.err = NULL;
	assert_int_equal(sm_line_fail(&r, 1, "nowhere"), -1);
	sm_lines_free(&r);
}

static const struct key {
	int kind;
	const char *name;
} keys[] = { { 7, "gp" }, { 8, "fixed" }, { 9, "width" } };
static const char *const names[] = { "open", "before", "after" };

static void test_key_tables(void **state)
{
	(void)state;
	assert_int_equal(sm_keys_find(SM_KEYS(keys, name), "gp"), 0);
	assert_int_equal(sm_keys_find(SM_KEYS(keys, name), "width"), 2);
	assert_int_equal(keys[sm_keys_find(SM_KEYS(keys, name), "fixed")].kind, 8);
	assert_int_equal(sm_keys_find(SM_KEYS(keys, name), "g"), -1);
	assert_int_equal(sm_keys_find(SM_KEYS(keys, name), NULL), -1);
	assert_string_equal(sm_keys_name(SM_KEYS(keys, name), 1), "fixed");
	assert_int_equal(sm_keys_find(SM_NAMES(names), "after"), 2);
	assert_int_equal(sm_keys_find(SM_NAMES(names), "during"), -1);
}

/* Token i of a 'pmu' line as one of keys[]. */
static int pmu_key(struct sm_lines *r, unsigned i, struct sm_tok *v)
{
	return sm_line_key(r, &r->tok[i], SM_KEYS(keys, name), "pmu", v);
}

static void test_key_values(void **state)
{
	struct sm_lines r;
	struct sm_tok v;
	(void)state;

	first(&r, &scn_like, "pmu width=48 gp==4 fixed");
	assert_int_equal(pmu_key(&r, 1, &v), 2);
	assert_string_equal(r.tok[1].s, "width"); /* cut to its key */
	assert_string_equal(v.s, "48");
	assert_int_equal(v.col, 11);
	assert_int_equal(r.seen[2], 5);
	assert_int_equal(pmu_key(&r, 2, &v), 0);
	assert_string_equal(v.s, "=4"); /* the value is the rest */
	assert_int_equal(pmu_key(&r, 3, &v), -1);
	assert_string_equal(err, "t.txt:1:20: missing '=' in 'fixed'");
	sm_lines_free(&r);

	first(&r, &scn_like, "pmu gp=1 gp=2 frob=3");
	assert_int_equal(pmu_key(&r, 1, &v), 0);
	assert_int_equal(pmu_key(&r, 2, &v), -1);
	assert_string_equal(err, "t.txt:1:10: duplicate key 'gp'");
	assert_int_equal(pmu_key(&r, 3, &v), -1);
	assert_string_equal(err, "t.txt:1:15: unknown key 'frob' for 'pmu'");
	/* a key seen on one line is not seen on the next */
	sm_lines_free(&r);
	first(&r, &scn_like, "pmu gp=1\npmu gp=2\n");
	assert_int_equal(pmu_key(&r, 1, &v), 0);
	assert_int_equal(sm_lines_next(&r), 1);
	assert_int_equal(r.seen[0], 0);
	assert_int_equal(pmu_key(&r, 1, &v), 0);
	sm_lines_free(&r);
}

/* A long line with many tokens: the copy and the token array grow. */
static void test_growth(void **state)
{
	static const struct sm_line_format big = {
		.max_len = 100000, .blanks = " ", .comment = SM_COMMENT_LINE,
	};
	char *text = malloc(60001);
	struct sm_lines r;
	(void)state;

	assert_non_null(text);
	for (int i = 0; i < 30000; i++)
		memcpy(text + 2 * i, "x ", 2);
	text[60000] = '\0';
	first(&r, &big, text);
	assert_int_equal(r.ntok, 30000);
	assert_int_equal(r.tok[29999].col, 59999);
	assert_int_equal(r.endcol, 60000);
	sm_lines_free(&r);
	free(text);
}

static void test_split(void **state)
{
	char list[] = "a,,b", *p = list;
	(void)state;

	assert_string_equal(sm_split_next(&p, ','), "a");
	assert_string_equal(sm_split_next(&p, ','), "");
	assert_string_equal(sm_split_next(&p, ','), "b");
	assert_null(sm_split_next(&p, ','));
	assert_null(sm_split_next(&p, ','));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_and_columns),
		cmocka_unit_test(test_comment_lines),
		cmocka_unit_test(test_line_errors),
		cmocka_unit_test(test_words_and_fail),
		cmocka_unit_test(test_key_tables),
		cmocka_unit_test(test_key_values),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
