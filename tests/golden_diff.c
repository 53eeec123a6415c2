/*
 * golden_diff.c — reading the verdict tables of tests/golden/ and saying
 * what two of them differ in, column by column (golden_diff.h).
 *
 * Owns: the row format's columns and key, the cell matching and the
 * report's wording.  Must not: run selfmon, judge a cell, or write a
 * table (test_verdicts.c does all three).
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "golden_diff.h"

const char *const golden_column[GOLDEN_COLUMNS] = {
	"bound", "engine", "arch", "reader", "scenario", "kernel", "verdict",
	"least_bound", "schedules", "blocked", "counter_path",
	"counterexample", "minimised", "result",
};
enum { VERDICT = 6 };

void golden_push(struct golden_rows *r, char *line)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 512;
		r->line = realloc(r->line, r->cap * sizeof(*r->line));
		if (!r->line)
			abort();
	}
	r->line[r->n++] = line;
}

void golden_free(struct golden_rows *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->line[i]);
	free(r->line);
	memset(r, 0, sizeof(*r));
}

/* The length of a row's key: up to the tab after its last key column. */
static size_t key_len(const char *line)
{
	const char *p = line;

	for (unsigned k = 0; k < GOLDEN_KEY && p; k++) {
		p = strchr(p, '\t');
		p = p && k + 1 < GOLDEN_KEY ? p + 1 : p;
	}
	return p ? (size_t)(p - line) : strlen(line);
}

static int key_cmp(const char *a, const char *b)
{
	size_t la = key_len(a), lb = key_len(b);
	int c = memcmp(a, b, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

static int by_key(const void *a, const void *b)
{
	return key_cmp(*(char *const *)a, *(char *const *)b);
}

void golden_sort(struct golden_rows *r)
{
	qsort(r->line, r->n, sizeof(*r->line), by_key);
}

/* Splits a row into its columns (pointers into it, with their lengths);
 * the number of columns. */
static size_t columns(const char *line, const char *col[GOLDEN_COLUMNS],
                      size_t len[GOLDEN_COLUMNS])
{
	size_t n = 0;

	for (const char *p = line;; p++) {
		size_t l = strcspn(p, "\t");
		if (n < GOLDEN_COLUMNS) {
			col[n] = p;
			len[n] = l;
		}
		n++;
		p += l;
		if (!*p)
			return n;
	}
}

static int read_file(const char *path, struct golden_rows *r, char *err,
                     size_t n)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, no = 0;
	ssize_t got;

	if (!f) {
		snprintf(err, n, "cannot read %s", path);
		return -1;
	}
	while ((got = getline(&line, &cap, f)) >= 0) {
		const char *col[GOLDEN_COLUMNS];
		size_t len[GOLDEN_COLUMNS];
		no++;
		if (got && line[got - 1] == '\n')
			line[--got] = 0;
		if (line[0] == '#' || !line[0])
			continue;
		if (columns(line, col, len) != GOLDEN_COLUMNS) {
			snprintf(err, n, "%s:%zu: not a row of %d tab-separated "
			         "columns", path, no, GOLDEN_COLUMNS);
			free(line);
			fclose(f);
			return -1;
		}
		char *copy = strdup(line);
		if (!copy)
			abort();
		golden_push(r, copy);
	}
	free(line);
	fclose(f);
	return 0;
}

static bool table_name(const char *name)
{
	size_t l = strlen(name);
	return !strncmp(name, "verdicts-", 9) && l > 13 &&
	       !strcmp(name + l - 4, ".tsv");
}

int golden_read(const char *path, struct golden_rows *r, char *err, size_t n)
{
	struct stat st;
	int rc = 0;

	if (stat(path, &st) < 0) {
		snprintf(err, n, "cannot read %s", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		rc = read_file(path, r, err, n);
	} else {
		struct dirent **e;
		int k = scandir(path, &e, NULL, alphasort), tables = 0;
		if (k < 0) {
			snprintf(err, n, "cannot read the directory %s", path);
			return -1;
		}
		for (int i = 0; i < k; i++) {
			if (!rc && table_name(e[i]->d_name)) {
				char file[4096];
				snprintf(file, sizeof(file), "%s/%s", path, e[i]->d_name);
				rc = read_file(file, r, err, n);
				tables++;
			}
			free(e[i]);
		}
		free(e);
		if (!rc && !tables) {
			snprintf(err, n, "no verdicts-*.tsv in %s", path);
			rc = -1;
		}
	}
	if (rc)
		return rc;
	golden_sort(r);
	for (size_t i = 1; i < r->n; i++)
		if (!key_cmp(r->line[i - 1], r->line[i])) {
			snprintf(err, n, "%s: the cell '%.*s' twice", path,
			         (int)key_len(r->line[i]), r->line[i]);
			return -1;
		}
	return 0;
}

/* A cell's key as words: "2 unicorn arm64 READER in SCENARIO, kernel K". */
static void key_text(FILE *out, const char *line)
{
	const char *c[GOLDEN_COLUMNS];
	size_t l[GOLDEN_COLUMNS];

	columns(line, c, l);
	fprintf(out, "%.*s %.*s %.*s %.*s in %.*s, kernel %.*s", (int)l[0], c[0],
	        (int)l[1], c[1], (int)l[2], c[2], (int)l[3], c[3], (int)l[4],
	        c[4], (int)l[5], c[5]);
}

/* The columns in which two rows of one cell differ, as bits. */
static unsigned changed_columns(const char *a, const char *b)
{
	const char *ca[GOLDEN_COLUMNS], *cb[GOLDEN_COLUMNS];
	size_t la[GOLDEN_COLUMNS], lb[GOLDEN_COLUMNS];
	unsigned bits = 0;

	columns(a, ca, la);
	columns(b, cb, lb);
	for (unsigned k = GOLDEN_KEY; k < GOLDEN_COLUMNS; k++)
		if (la[k] != lb[k] || memcmp(ca[k], cb[k], la[k]))
			bits |= 1u << k;
	return bits;
}

/* "column old -> new" for each column in bits. */
static void show_change(FILE *out, const char *a, const char *b,
                        unsigned bits)
{
	const char *ca[GOLDEN_COLUMNS], *cb[GOLDEN_COLUMNS];
	size_t la[GOLDEN_COLUMNS], lb[GOLDEN_COLUMNS];
	const char *sep = ": ";

	columns(a, ca, la);
	columns(b, cb, lb);
	for (unsigned k = GOLDEN_KEY; k < GOLDEN_COLUMNS; k++)
		if (bits & 1u << k) {
			fprintf(out, "%s%s %.*s -> %.*s", sep, golden_column[k],
			        (int)la[k], ca[k], (int)lb[k], cb[k]);
			sep = "; ";
		}
	fputc('\n', out);
}

/* Walks both tables in key order: f(arg, old row or NULL, new row or
 * NULL) for every cell of either. */
static void walk(const struct golden_rows *want, const struct golden_rows *now,
                 void (*f)(void *, const char *, const char *), void *arg)
{
	for (size_t i = 0, j = 0; i < want->n || j < now->n;) {
		int c = i == want->n ? 1 : j == now->n ? -1
		        : key_cmp(want->line[i], now->line[j]);
		f(arg, c <= 0 ? want->line[i] : NULL, c >= 0 ? now->line[j] : NULL);
		i += c <= 0;
		j += c >= 0;
	}
}

struct count {
	struct golden_diff *d;
	unsigned mask; /* the columns changed in any row */
};

static void count_row(void *arg, const char *a, const char *b)
{
	struct count *c = arg;

	if (!a || !b) {
		c->d->only_want += !b;
		c->d->only_now += !a;
		return;
	}
	unsigned bits = changed_columns(a, b);
	c->d->rows++;
	c->d->changed += bits != 0;
	c->mask |= bits;
	for (unsigned k = 0; k < GOLDEN_COLUMNS; k++)
		c->d->column[k] += (bits >> k) & 1;
}

struct show {
	FILE *out;
	unsigned examples, verdicts, changes, alone;
	bool verdict_pass; /* listing the verdict changes, else examples */
};

static void show_row(void *arg, const char *a, const char *b)
{
	struct show *s = arg;

	if (s->verdict_pass) {
		if (a && b && changed_columns(a, b) & 1u << VERDICT) {
			fputs("  verdict changed: ", s->out);
			key_text(s->out, a);
			show_change(s->out, a, b, 1u << VERDICT);
		}
		return;
	}
	if (a && b) {
		unsigned bits = changed_columns(a, b);
		if (bits && s->changes++ < s->examples) {
			fputs("  e.g. ", s->out);
			key_text(s->out, a);
			show_change(s->out, a, b, bits);
		}
	} else if (s->alone++ < s->examples) {
		fprintf(s->out, "  only in the %s table: ", a ? "old" : "new");
		key_text(s->out, a ? a : b);
		fputc('\n', s->out);
	}
}

static void summary(FILE *out, const struct golden_diff *d, unsigned mask)
{
	unsigned ncol = 0, last = 0;

	if (!d->changed && !d->only_want && !d->only_now) {
		fprintf(out, "no row changed (%zu rows)\n", d->rows);
		return;
	}
	if (d->column[VERDICT])
		fprintf(out, "%zu verdicts changed", d->column[VERDICT]);
	else
		fprintf(out, "verdicts unchanged");
	for (unsigned k = 0; k < GOLDEN_COLUMNS; k++)
		if (mask & 1u << k) {
			ncol++;
			last = k;
		}
	if (ncol == 1)
		fprintf(out, ", %zu rows changed only in column %s", d->changed,
		        golden_column[last]);
	else if (ncol) {
		fprintf(out, ", %zu rows changed, in columns:", d->changed);
		for (unsigned k = 0, i = 0; k < GOLDEN_COLUMNS; k++)
			if (mask & 1u << k)
				fprintf(out, "%s %s %zu rows", i++ ? "," : "",
				        golden_column[k], d->column[k]);
	}
	if (d->only_want || d->only_now)
		fprintf(out, "; %zu cells only in the old table, %zu only in the "
		        "new", d->only_want, d->only_now);
	fprintf(out, " (of %zu cells in both)\n", d->rows);
}

size_t golden_compare(const struct golden_rows *want,
                      const struct golden_rows *now, struct golden_diff *d,
                      FILE *out, unsigned examples)
{
	struct count c = { d, 0 };

	memset(d, 0, sizeof(*d));
	walk(want, now, count_row, &c);
	if (out) {
		struct show s = { out, examples, 0, 0, 0, true };
		summary(out, d, c.mask);
		walk(want, now, show_row, &s);
		s.verdict_pass = false;
		walk(want, now, show_row, &s);
		if (s.changes > examples)
			fprintf(out, "  (%u more changed rows)\n", s.changes - examples);
		if (s.alone > examples)
			fprintf(out, "  (%u more cells in one table only)\n",
			        s.alone - examples);
	}
	return d->changed + d->only_want + d->only_now;
}
