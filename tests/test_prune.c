/*
 * test_prune.c — the pruning table and the window's set hash (prune.h),
 * apart from the explorer; and, in a second, that pruning changes nothing
 * a cell reports on cells where it prunes most (bound 4 in x86_never_ran:
 * over half the schedules are counted from an equal state).  The whole
 * sweep pruned against the unpruned golden table is test_verdicts' (slow).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "json_read.h"
#include "prune.h"

static struct sm_truth truth(uint64_t count, uint64_t t)
{
	return (struct sm_truth){ count, t, t, t, t };
}

static struct sm_window_hash hash_of(const struct sm_truth *s, unsigned n)
{
	struct sm_window_hash w = { 0 };

	sm_window_hash_add(&w, s, n);
	return w;
}

static bool same(struct sm_window_hash a, struct sm_window_hash b)
{
	return a.sum[0] == b.sum[0] && a.sum[1] == b.sum[1];
}

/* Equal sets of values hash equal wherever a value repeats next to
 * itself; other sets do not. */
static void test_window_sets(void **state)
{
	(void)state;
	struct sm_truth a = truth(10, 1), b = truth(11, 2), c = truth(12, 3);
	struct sm_truth x[] = { a, b, b, c }, y[] = { a, a, b, c, c },
	                z[] = { a, b, c }, other[] = { a, b, b, b },
	                moved[] = { a, truth(11, 3), c };

	assert_true(same(hash_of(x, 4), hash_of(y, 5)));
	assert_true(same(hash_of(x, 4), hash_of(z, 3)));
	assert_false(same(hash_of(x, 4), hash_of(other, 4)));
	assert_false(same(hash_of(z, 3), hash_of(moved, 3)));
	/* grown in steps, as the explorer grows it, or at once */
	struct sm_window_hash w = { 0 };
	sm_window_hash_add(&w, y, 2);
	sm_window_hash_add(&w, y, 3);
	sm_window_hash_add(&w, y, 5);
	assert_true(same(w, hash_of(z, 3)));
	assert_int_equal(w.n, 5);
}

static struct sm_prune_key key(uint64_t i)
{
	return (struct sm_prune_key){ { i * 0x9e3779b97f4a7c15ull, ~i } };
}

/* What goes in comes out, through the table's growth, until it is full:
 * each of the three counts on its own (a count dropped or swapped with
 * another would show). */
static void test_table(void **state)
{
	(void)state;
	struct sm_prune *p = sm_prune_new();
	struct sm_prune_counts n;

	assert_non_null(p);
	assert_false(sm_prune_find(p, key(1), &n));
	for (uint64_t i = 1; i <= 100000; i++)
		sm_prune_add(p, key(i), &(struct sm_prune_counts){ i, i / 2,
		                                                   i / 3 });
	for (uint64_t i = 1; i <= 100000; i += 997) {
		assert_true(sm_prune_find(p, key(i), &n));
		assert_int_equal(n.runs, i);
		assert_int_equal(n.blocked, i / 2);
		assert_int_equal(n.counter_path, i / 3);
	}
	assert_false(sm_prune_find(p, key(100001), &n));
	assert_false(sm_prune_full(p));
	for (uint64_t i = 100001; i <= SM_PRUNE_MAX + 10; i++)
		sm_prune_add(p, key(i), &(struct sm_prune_counts){ 1, 0, 1 });
	assert_true(sm_prune_full(p));
	assert_true(sm_prune_find(p, key(SM_PRUNE_MAX), &n));
	assert_int_equal(n.counter_path, 1);
	assert_false(sm_prune_find(p, key(SM_PRUNE_MAX + 5), &n));
	sm_prune_free(p);
}

/* Every field of every cell of `check ARGS --json --no-traces` but
 * `pruned`, as text "key=value;" in a[] (one string a cell); the pruned
 * counts in pruned[]. */
static unsigned cells_of(const char *args, char a[][2048], uint64_t *pruned,
                         unsigned max)
{
	char cmd[1024], err[256];
	struct jr_value doc;

	snprintf(cmd, sizeof(cmd), "check %s --json --no-traces", args);
	run(cmd);
	assert_true(r.status == 0 || r.status == 1);
	if (jr_parse(r.out, strlen(r.out), &doc, err, sizeof(err)) < 0)
		fail_msg("%s: %s", cmd, err);
	const struct jr_value *all = jr_get(&doc, "cells");
	assert_non_null(all);
	assert_true(all->n > 0 && all->n <= max);
	for (size_t i = 0; i < all->n; i++) {
		const struct jr_value *o = &all->items[i];
		size_t k = 0;
		a[i][0] = '\0';
		pruned[i] = UINT64_MAX;
		for (size_t f = 0; f < o->n; f++) {
			const struct jr_value *v = &o->items[f];
			if (!strcmp(o->keys[f], "pruned")) {
				assert_true(jr_u64(v, &pruned[i]));
				continue;
			}
			k += (size_t)snprintf(a[i] + k, 2048 - k, "%s=%s;", o->keys[f],
			                      v->type == JR_STRING || v->type == JR_NUMBER
			                      ? v->text : v->type == JR_BOOL
			                      ? (v->b ? "true" : "false") : "(tree)");
			assert_true(k < 2048);
		}
		assert_true(pruned[i] != UINT64_MAX);
	}
	unsigned n = (unsigned)all->n;
	jr_free(&doc);
	return n;
}

/* Pruned and unpruned, the same cells: verdicts, schedules, counter
 * paths, counterexamples; and the pruned run did prune. */
static void test_pruning_changes_nothing(void **state)
{
	(void)state;
	static char a[8][2048], b[8][2048];
	uint64_t pa[8], pb[8];
	const char *cells = "jevents_mask48 pinned_loop --scenario x86_never_ran "
	                    "--bound 4";
	char np[256];

	snprintf(np, sizeof(np), "%s --no-prune", cells);
	unsigned n = cells_of(cells, a, pa, 8);
	assert_int_equal(cells_of(np, b, pb, 8), n);
	for (unsigned i = 0; i < n; i++) {
		assert_string_equal(a[i], b[i]);
		assert_true(pa[i] > 0);
		assert_int_equal(pb[i], 0);
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(test_window_sets),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_pruning_changes_nothing),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
