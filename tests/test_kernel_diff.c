/*
 * test_kernel_diff.c — end-to-end tests of the kernel diffs between two
 * kernels given as A..B: `selfmon check --kernel-diff A..B` (A..A changes
 * nothing; 6.12..7.2 finds what `--kernel-diff 7.2` finds) and `selfmon
 * model --kernel-diff V|A..B SCENARIO` (the page writes that differ, held
 * against a diff this test makes itself of two `model --kernel K --json`
 * runs), and their bad input: one line, exit 2.
 */
#include "cli.h"
#include "json_read.h"

static void parse(const char *text, struct jr_value *v)
{
	char err[256];
	if (jr_parse(text, strlen(text), v, err, sizeof(err)) < 0)
		fail_msg("not JSON (%s): %.300s", err, text);
}

static const char *str_of(const struct jr_value *obj, const char *key)
{
	const char *s = jr_str(jr_get(obj, key));
	if (!s)
		fail_msg("no string \"%s\"", key);
	return s;
}

static uint64_t u64_of(const struct jr_value *obj, const char *key)
{
	uint64_t v;
	if (!jr_u64(jr_get(obj, key), &v))
		fail_msg("no count \"%s\"", key);
	return v;
}

/* Cut every occurrence of cut out of s. */
static void strip(char *s, const char *cut)
{
	size_t n = strlen(cut);
	for (char *p; (p = strstr(s, cut));)
		memmove(p, p + n, strlen(p + n) + 1);
}

/* check --kernel-diff A..A: both sweeps are the same kernel. */
static void test_check_same_kernel(void **state)
{
	struct jr_value v;
	(void)state;
	run("check --scenario x86_reset --kernel-diff "
	    "reset_prev_count..reset_prev_count --json");
	assert_int_equal(r.status, 0);
	parse(r.out, &v);
	assert_string_equal(str_of(&v, "from"), "reset_prev_count");
	assert_string_equal(str_of(&v, "to"), "reset_prev_count");
	assert_int_equal(jr_get(&v, "cells")->n, 0);
	assert_int_equal(u64_of(&v, "changed"), 0);
	assert_true(u64_of(&v, "compared") > 0);
	jr_free(&v);
	run("check --scenario x86_reset --kernel-diff 6.12..base");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "kernel diff: base -> base, "));
	assert_non_null(strstr(r.out, "\n0 changed, 0 broke"));
}

/* check --kernel-diff A..B where A is the scenario's kernel finds what
 * --kernel-diff B finds: the same cells, verdicts and details.  The A..B
 * lines name the old kernel (";kernel=base"), since A replaces the
 * scenario's own; with that cut, the documents agree. */
static void test_check_range_is_variant(void **state)
{
	static char range[1 << 16];
	struct jr_value a, b;
	(void)state;
	if (!arch_built("arm64"))
		skip();
	run("check --scenario arm64_smt --kernel-diff 6.12..7.2 --json");
	assert_int_equal(r.status, 0);
	assert_true(strlen(r.out) < sizeof(range));
	strcpy(range, r.out);
	run("check --scenario arm64_smt --kernel-diff 7.2 --json");
	assert_int_equal(r.status, 0);
	parse(range, &a);
	parse(r.out, &b);
	assert_string_equal(str_of(&a, "from"), "base");
	assert_string_equal(str_of(&a, "to"), "7.2");
	assert_string_equal(str_of(&b, "variant"), "7.2");
	assert_true(u64_of(&a, "changed") > 0);
	const char *keys[] = { "compared", "changed", "broke" };
	for (unsigned k = 0; k < 3; k++)
		assert_int_equal(u64_of(&a, keys[k]), u64_of(&b, keys[k]));
	jr_free(&a);
	jr_free(&b);
	strip(range, ";kernel=base");
	char *ca = strstr(range, "\"cells\":"), *cb = strstr(r.out, "\"cells\":");
	assert_true(ca && cb);
	assert_string_equal(ca, cb);
}

static void test_check_bad_range(void **state)
{
	(void)state;
	expect_usage_error("check --kernel-diff 6.12..", "bad kernel diff "
	                   "'6.12..': give A..B");
	expect_usage_error("check --kernel-diff ..7.2", "bad kernel diff");
	expect_usage_error("check --kernel-diff 6.12..7.2..7.2",
	                   "bad kernel diff");
	expect_usage_error("check --kernel-diff 6.12..7.3", "unknown kernel "
	                   "'7.3'");
	expect_usage_error("check --kernel-diff base..nosuch", "unknown kernel "
	                   "'nosuch'");
	expect_usage_error("check --kernel-diff reset_prev_count..userpage_wmb",
	                   "compares no cell: kernel variant 'userpage_wmb' "
	                   "applies to arm64, riscv64 only");
	expect_usage_error("check --kernel-diff reset_prev_count,userpage_wmb.."
	                   "7.2", "compares no cell: kernel variant "
	                   "'userpage_wmb' applies to arm64, riscv64 only, not "
	                   "x86_64");
	expect_usage_error("check --kernel 7.2 --kernel-diff 7.2..7.2",
	                   "A..B names both kernels");
	expect_usage_error("check --kernel-diff 6.12..userpage_wmb --arch "
	                   "x86_64", "'userpage_wmb' applies to arm64, riscv64");
	expect_usage_error("check --kernel-diff base..7.2 --tap",
	                   "not --tap or --junit");
}

/* The JSON Lines of `model --kernel K --json SCENARIO`, parsed. */
struct updates {
	struct jr_value v[256];
	unsigned n;
};

static void model_run(const char *kernel, const char *scn, struct updates *u)
{
	char args[256];
	snprintf(args, sizeof(args), "model --kernel %s --json %s", kernel, scn);
	run(args);
	assert_int_equal(r.status, 0);
	u->n = 0;
	for (char *line = r.out, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = 0;
		assert_true(u->n < 256);
		parse(line, &u->v[u->n++]);
	}
}

/* The page's fields of update i of a and b that differ: written to
 * `want` as the diff's JSON would list them, "field:old:new;" each;
 * their number.  `capabilities` is left out: its bits are keys too. */
static unsigned differing(const struct jr_value *a, const struct jr_value *b,
                          char *want, size_t n)
{
	const struct jr_value *pa = jr_get(a, "page"), *pb = jr_get(b, "page");
	unsigned k = 0;
	size_t used = strlen(want);

	assert_true(pa && pb && pa->n == pb->n);
	for (unsigned f = 0; f < pa->n; f++) {
		assert_string_equal(pa->keys[f], pb->keys[f]);
		if (!strcmp(pa->keys[f], "capabilities") ||
		    !strcmp(pa->items[f].text, pb->items[f].text))
			continue;
		k++;
		used += (size_t)snprintf(want + used, n - used, "%s:%s:%s;",
		                         pa->keys[f], pa->items[f].text,
		                         pb->items[f].text);
		assert_true(used < n);
	}
	return k;
}

/* What model --kernel-diff's JSON lists, in the form differing() writes;
 * its update count. */
static unsigned listed(const struct jr_value *d, char *got, size_t n)
{
	const struct jr_value *ups = jr_get(d, "updates");
	size_t used = 0;

	assert_non_null(ups);
	got[0] = 0;
	for (unsigned i = 0; i < ups->n; i++) {
		const struct jr_value *fs = jr_get(&ups->items[i], "fields");
		assert_non_null(fs); /* no update is only under one kernel */
		used += (size_t)snprintf(got + used, n - used, "@%s %s|",
		                         jr_get(&ups->items[i], "at")->text,
		                         str_of(&ups->items[i], "action"));
		for (unsigned f = 0; f < fs->n; f++)
			used += (size_t)snprintf(got + used, n - used, "%s:%s:%s;",
			                         str_of(&fs->items[f], "field"),
			                         jr_get(&fs->items[f], "old")->text,
			                         jr_get(&fs->items[f], "new")->text);
		assert_true(used < n);
	}
	return ups->n;
}

/* model --kernel-diff V SCENARIO against the two runs it compares, each
 * from `model --kernel K --json`, diffed here field by field. */
static void diff_against_runs(const char *old, const char *new,
                              const char *spec, const char *scn)
{
	static struct updates a, b;
	char want[8192] = "", got[8192], args[256], summary[256];
	unsigned ndiff = 0, nfields = 0;
	struct jr_value d;

	model_run(old, scn, &a);
	model_run(new, scn, &b);
	assert_int_equal(a.n, b.n); /* the same updates, paired in order */
	for (unsigned i = 0; i < a.n; i++) {
		assert_string_equal(str_of(&a.v[i], "action"),
		                    str_of(&b.v[i], "action"));
		size_t mark = strlen(want);
		snprintf(want + mark, sizeof(want) - mark, "@%s %s|",
		         jr_get(&a.v[i], "at")->text, str_of(&a.v[i], "action"));
		unsigned k = differing(&a.v[i], &b.v[i], want, sizeof(want));
		if (!k)
			want[mark] = 0;
		ndiff += k > 0;
		nfields += k;
	}
	snprintf(args, sizeof(args), "model --kernel-diff %s --json %s", spec,
	         scn);
	run(args);
	assert_int_equal(r.status, 0);
	parse(r.out, &d);
	assert_int_equal(listed(&d, got, sizeof(got)), ndiff);
	assert_string_equal(got, want);
	assert_int_equal(u64_of(&d, "compared"), a.n);
	assert_int_equal(u64_of(&d, "differ"), ndiff);
	assert_int_equal(u64_of(&d, "fields"), nfields);
	assert_int_equal(u64_of(&d, "only_old") + u64_of(&d, "only_new"), 0);
	jr_free(&d);
	for (unsigned i = 0; i < a.n; i++) {
		jr_free(&a.v[i]);
		jr_free(&b.v[i]);
	}
	/* the table ends in the same counts */
	snprintf(args, sizeof(args), "model --kernel-diff %s %s", spec, scn);
	run(args);
	assert_int_equal(r.status, 0);
	snprintf(summary, sizeof(summary), "\n%u of %u updates differ (%u "
	         "field%s); 0 only under %s, 0 only under %s\n", ndiff, a.n,
	         nfields, nfields == 1 ? "" : "s", old, new);
	if (!strstr(r.out, summary))
		fail_msg("no '%s' in %s", summary, r.out);
}

static void test_model_diff(void **state)
{
	(void)state;
	/* the reset quirk's variant changes the page's offset at the reset */
	diff_against_runs("base", "reset_prev_count", "reset_prev_count",
	                  "x86_reset");
	run("model --kernel-diff reset_prev_count x86_reset");
	assert_non_null(strstr(r.out, " reset       instructions offset "));
	/* A..B names both sides; A..A is no difference */
	diff_against_runs("reset_prev_count", "7.2", "reset_prev_count..7.2",
	                  "x86_reset");
	diff_against_runs("7.2", "7.2", "7.2..7.2", "x86_multiplex");
	if (arch_built("arm64")) /* (the model needs no reader code) */
		diff_against_runs("base", "7.2", "7.2", "arm64_smt");
}

/* The diff against runs that did differ: at least one write must. */
static void test_model_diff_finds(void **state)
{
	struct jr_value d;
	(void)state;
	run("model --kernel-diff 6.12..reset_prev_count --json x86_reset");
	assert_int_equal(r.status, 0);
	parse(r.out, &d);
	assert_true(u64_of(&d, "differ") > 0);
	assert_string_equal(str_of(&d, "old_kernel"), "base");
	assert_string_equal(str_of(&d, "new_kernel"), "reset_prev_count");
	jr_free(&d);
	run("model --kernel-diff 7.2 --json arm64_smt");
	parse(r.out, &d);
	assert_true(u64_of(&d, "differ") > 0);
	jr_free(&d);
}

static void test_model_bad_diff(void **state)
{
	(void)state;
	expect_usage_error("model --kernel-diff base x86_reset",
	                   "--kernel-diff needs a version or a variant");
	expect_usage_error("model --kernel-diff userpage_wmb x86_reset",
	                   "'userpage_wmb' applies to arm64, riscv64 only");
	expect_usage_error("model --kernel-diff base..userpage_wmb x86_reset",
	                   "'userpage_wmb' applies to arm64, riscv64 only");
	expect_usage_error("model --kernel-diff 6.12.. x86_reset",
	                   "bad kernel diff");
	expect_usage_error("model --kernel-diff 7.2..7.2 --kernel 7.2 x86_reset",
	                   "A..B names both kernels");
	expect_usage_error("model --kernel-diff 7.2 --compare /dev/null",
	                   "--kernel-diff is not for --compare");
	expect_usage_error("model --kernel-diff 7.2 nosuch_scenario",
	                   "unknown scenario 'nosuch_scenario'");
	expect_usage_error("model --kernel-diff 7.2", "missing SCENARIO");
	/* a scenario that loads but writes its pages too often to diff:
	 * a tick every 10 cycles rotates two events on one counter */
	char path[600], args[700];
	snprintf(path, sizeof(path), "%s/busy.scn", tmpdir());
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("arch x86_64\npmu gp=1 fixed=0 mux_interval=10\nevent a\n"
	      "event b\nend 950000\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(args, sizeof(args), "model --kernel-diff 7.2 %s", path);
	expect_usage_error(args, "more than 200000 page updates under kernel "
	                   "base: too many to diff");
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_same_kernel),
		cmocka_unit_test(test_check_range_is_variant),
		cmocka_unit_test(test_check_bad_range),
		cmocka_unit_test(test_model_diff),
		cmocka_unit_test(test_model_diff_finds),
		cmocka_unit_test(test_model_bad_diff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
