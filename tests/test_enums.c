/*
 * test_enums.c — every value of every enum selfmon names has a complete
 * row in its one descriptor table: arches, actions, capability letters
 * (model/enums.c), verdicts (model/verdict.c), reader ABIs
 * (sim/readers/readers.c) and wrong-value causes (sim/oracle/oracle.c).
 *
 * A value added to an enum without its row leaves a zero row (the tables
 * are indexed by value), which these tests catch; they must not test what
 * a row says, only that it says it, once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"
#include "reader.h"
#include "result.h"
#include "user_reader.h"
#include "verdict.h"

static bool filled(const char *s)
{
	return s && *s && strcmp(s, "?") != 0;
}

/* names[0..n) are distinct. */
static void distinct(const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			assert_string_not_equal(names[i], names[j]);
}

static void test_arches(void **state)
{
	(void)state;
	const char *names[SM_NARCH];
	for (int a = 0; a < SM_NARCH; a++) {
		const struct sm_arch_desc *d = sm_arch_desc((enum sm_arch)a);
		assert_true(filled(d->name) && filled(d->counter));
		assert_int_equal(sm_arch_from_name(d->name), a);
		names[a] = d->name;
	}
	distinct(names, SM_NARCH);
	assert_string_equal(sm_arch_desc(SM_NARCH)->name, "?");
	assert_int_equal(sm_arch_from_name("?"), -1);
}

static bool is_colour(const char *c)
{
	size_t n = c ? strlen(c) : 0;
	if (c == NULL || c[0] != '#' || (n != 4 && n != 7))
		return false;
	return strspn(c + 1, "0123456789abcdefABCDEF") == n - 1;
}

static void test_actions(void **state)
{
	(void)state;
	const char *names[SM_NACTIONS];
	for (int k = 0; k < SM_NACTIONS; k++) {
		const struct sm_action_desc *d =
		    sm_action_desc((enum sm_action_kind)k);
		assert_true(filled(d->name) && filled(d->what));
		assert_true(is_colour(d->colour));
		assert_int_equal(sm_action_from_name(d->name), k);
		names[k] = d->name;
	}
	distinct(names, SM_NACTIONS);
	assert_string_equal(sm_action_name(SM_NACTIONS), "?");
}

/* Each letter's bit is the page's bitfield of the same name: set the
 * bitfield through the uapi layout (page.h) and find the table's bit. */
static void test_capability_letters(void **state)
{
	(void)state;
	const char *names[SM_NCAPS];
	char letters[SM_NCAPS + 1];
	for (unsigned i = 0; i < SM_NCAPS; i++) {
		const struct sm_cap_desc *d = sm_cap_desc(i);
		assert_non_null(d);
		assert_true(d->letter >= 'a' && d->letter <= 'z');
		assert_true(filled(d->field) && filled(d->what));
		struct perf_event_mmap_page pg;
		memset(&pg, 0, sizeof(pg));
		if (!strcmp(d->field, "cap_user_rdpmc"))
			pg.cap_user_rdpmc = 1;
		else if (!strcmp(d->field, "cap_user_time"))
			pg.cap_user_time = 1;
		else if (!strcmp(d->field, "cap_user_time_zero"))
			pg.cap_user_time_zero = 1;
		else if (!strcmp(d->field, "cap_user_time_short"))
			pg.cap_user_time_short = 1;
		else
			fail_msg("capability %s is not a page bitfield", d->field);
		assert_int_equal(pg.capabilities, 1ull << d->bit);
		/* sm_caps_letters() shows exactly this letter, in place i */
		sm_caps_letters(pg.capabilities, letters);
		for (unsigned j = 0; j < SM_NCAPS; j++)
			assert_int_equal(letters[j], j == i ? d->letter : '-');
		names[i] = d->field;
	}
	assert_null(sm_cap_desc(SM_NCAPS));
	distinct(names, SM_NCAPS);
}

static void test_verdicts(void **state)
{
	(void)state;
	const char *names[SM_NVERDICTS];
	for (int v = 0; v < SM_NVERDICTS; v++) {
		const struct sm_verdict_desc *d = sm_verdict_desc((enum sm_verdict)v);
		assert_true(filled(d->name) && filled(d->what));
		assert_int_equal(sm_verdict_from_name(d->name), v);
		names[v] = d->name;
	}
	distinct(names, SM_NVERDICTS);
	assert_string_equal(sm_verdict_name(SM_NVERDICTS), "?");
}

/* The ABIs: every column, and sm_abi_list() names them all, in order,
 * once (the one-call list without the two-call ones). */
static void test_abis(void **state)
{
	(void)state;
	const char *names[SM_NABI];
	for (int a = 0; a < SM_NABI; a++) {
		const struct sm_abi_desc *d = sm_abi_desc((enum sm_abi)a);
		assert_true(filled(d->name) && filled(d->call) &&
		            filled(d->returns));
		/* a two-call ABI's call column names both calls */
		assert_int_equal(strstr(d->call, ", then ") != NULL, d->two_calls);
		assert_int_equal(sm_abi_two_calls((enum sm_abi)a), d->two_calls);
		assert_int_equal(sm_abi_from_name(d->name), a);
		names[a] = d->name;
	}
	distinct(names, SM_NABI);
	for (int one = 0; one < 2; one++) {
		char out[256], want[256] = "";
		sm_abi_list(out, sizeof(out), "|", "|", one);
		for (int a = 0; a < SM_NABI; a++)
			if (!one || !sm_abi_two_calls((enum sm_abi)a))
				snprintf(want + strlen(want), sizeof(want) - strlen(want),
				         "%s%s", *want ? "|" : "", names[a]);
		assert_string_equal(out, want);
	}
	char out[256];
	sm_abi_list(out, sizeof(out), ", ", " or ", false);
	const char *last = names[SM_NABI - 1], *or = strstr(out, " or ");
	assert_non_null(or);
	assert_string_equal(or + 4, last);
}

static void test_causes(void **state)
{
	(void)state;
	const char *names[SM_NCAUSES];
	for (int c = 0; c < SM_NCAUSES; c++) {
		const struct sm_cause_desc *d = sm_cause_desc((enum sm_cause)c);
		assert_true(filled(d->name) && filled(d->what));
		names[c] = d->name;
	}
	distinct(names, SM_NCAUSES);
	assert_string_equal(sm_cause_name(SM_NCAUSES), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arches),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_capability_letters),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_abis),
		cmocka_unit_test(test_causes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
