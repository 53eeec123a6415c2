/*
 * details.c — the details after the verdict table (details.h): each
 * failure's block, identical ones grouped, as valgrind groups its errors.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "details.h"
#include "lookalike.h"
#include "report.h"
#include "verdict.h"

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

char *sm_detail_shape(const char *detail)
{
	size_t n = strlen(detail);
	char *out = malloc(n + 1), *o = out;
	const char *p = detail;

	if (!out)
		return NULL;
	while (*p) {
		bool starts = p == detail || !word_char(p[-1]);
		if (starts && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
		    isxdigit((unsigned char)p[2])) {
			do /* a hex literal stays whole */
				*o++ = *p++;
			while (isxdigit((unsigned char)*p));
		} else if (isdigit((unsigned char)*p) && starts &&
		           (p == detail || p[-1] != '^')) {
			while (isdigit((unsigned char)*p))
				p++;
			*o++ = '#';
		} else if (isalnum((unsigned char)*p)) {
			while (word_char(*p)) /* a word, its digits too */
				*o++ = *p++;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

/* A cell's key: reader, verdict, expected and shape, and its place. */
struct item {
	char *key;
	size_t i;
};

static int by_key(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

static char *key_of(const struct sm_cell_report *c)
{
	char *shape = sm_detail_shape(c->detail), *key = NULL;
	const char *v = sm_verdict_name(c->verdict);
	const char *e = sm_cell_report_expected(c);
	size_t n;

	if (!shape)
		return NULL;
	/* \x1f: a unit separator no name or detail holds (input.c's rule) */
	n = strlen(c->reader) + strlen(v) + strlen(e) + strlen(shape) + 4;
	if ((key = malloc(n)))
		snprintf(key, n, "%s\x1f%s\x1f%s\x1f%s", c->reader, v, e, shape);
	free(shape);
	return key;
}

static void block(const struct sm_cell_report *d)
{
	printf("\n%s in %s: %s, expected %s\n  %s\n", d->reader, d->scenario,
	       sm_verdict_name(d->verdict), sm_cell_report_expected(d),
	       d->detail);
	if (!d->min)
		return;
	char *replay = sm_report_replay(d->min);
	printf("  found:     %s\n  minimised: %s\n", d->found, d->min);
	if (replay)
		printf("  replay:    %s\n", replay);
	free(replay);
	if (d->trace && d->trace[0])
		printf("  trace:     %s\n", d->trace);
	sm_lookalike_print(d->looks_like, d->nlooks_like, "  ");
}

/* The blocks of the n cells d[] (each not as expected). */
static int print_blocks(const struct sm_cell_report *const *d, size_t n)
{
	struct item *it = calloc(n ? n : 1, sizeof(*it));
	size_t *run = calloc(n ? n : 1, sizeof(*run)); /* i's first in it[] */
	size_t *len = calloc(n ? n : 1, sizeof(*len)); /* its group's size */
	int rc = it && run && len ? 0 : -1;

	for (size_t i = 0; !rc && i < n; i++)
		if (!(it[i].key = key_of(d[i])))
			rc = -1;
		else
			it[i].i = i;
	if (!rc) {
		qsort(it, n, sizeof(*it), by_key);
		for (size_t k = 0, first = 0; k < n; k++) {
			if (k && strcmp(it[k].key, it[k - 1].key))
				first = k;
			run[it[k].i] = first;
			len[it[first].i]++; /* it[first].i: the group's first cell */
		}
		for (size_t i = 0; i < n; i++) {
			if (it[run[i]].i != i)
				continue; /* in the block of an earlier cell */
			block(d[i]);
			if (len[i] < 2)
				continue;
			/* an unexpected PASS is no failure of the reader's */
			printf("  the same %s in %zu cells (the detail alike but for "
			       "its numbers; each one's counterexample is in its row):"
			       " scenarios", sm_verdict_fails(d[i]->verdict)
			       ? "failure" : "outcome", len[i]);
			for (size_t k = run[i]; k < run[i] + len[i]; k++)
				printf("%s %s", k > run[i] ? "," : "",
				       d[it[k].i]->scenario);
			putchar('\n');
		}
	}
	for (size_t i = 0; it && i < n; i++)
		free(it[i].key);
	free(it);
	free(run);
	free(len);
	return rc;
}

int sm_details_print(const struct sm_cell_report *c, size_t n)
{
	const struct sm_cell_report **d = calloc(n ? n : 1, sizeof(*d));
	size_t k = 0;

	if (!d)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!c[i].error && !sm_cell_report_as_expected(&c[i]))
			d[k++] = &c[i];
	int rc = print_blocks(d, k);
	free(d);
	return rc;
}
