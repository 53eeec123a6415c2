/*
 * srctext.c — source lines as text (see srctext.h).
 *
 * Owns: the files read for one listing (each whole, at most
 * SM_SRCTEXT_MAX_BYTES, with an index of where its lines start; the
 * bytes and indexes of a user's files at most about SM_SRCTEXT_MAX_TOTAL
 * in all) and the shaping of one line for every output format.  A
 * user's file is opened as an input file is (util/input.h: a regular
 * file, never blocking, within the cap) and not through a symbolic link:
 * the DWARF names it, and a listing must not show what a link in
 * someone's tree points at.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "sources.h"
#include "srctext.h"

struct srcfile {
	char *name;         /* as the DWARF has it */
	const char *text;   /* NULL: not shown (why says why) */
	size_t len;
	char *own;          /* a file read: its bytes */
	uint32_t *start;    /* where each line starts */
	size_t nlines;
	char why[160];
	bool said;          /* the note for this file was given */
	bool over;          /* not read: the listing's files at their cap */
};

struct sm_srctext {
	bool builtin;
	struct srcfile f[SM_SRCTEXT_MAX_FILES];
	unsigned n;
	size_t used;        /* bytes of the files read, SM_SRCTEXT_MAX_TOTAL */
	bool said_many;     /* the note on SM_SRCTEXT_MAX_FILES was given */
	bool said_over;     /* the note on SM_SRCTEXT_MAX_TOTAL was given */
};

struct sm_srctext *sm_srctext_new(bool builtin)
{
	struct sm_srctext *t = calloc(1, sizeof(*t));

	if (t)
		t->builtin = builtin;
	return t;
}

void sm_srctext_free(struct sm_srctext *t)
{
	if (!t)
		return;
	for (unsigned i = 0; i < t->n; i++) {
		free(t->f[i].name);
		free(t->f[i].own);
		free(t->f[i].start);
	}
	free(t);
}

/* A user's file, whole, into f (f->why when it cannot be shown), within
 * what is left of the listing's SM_SRCTEXT_MAX_TOTAL bytes (*used). */
static void read_file(struct srcfile *f, size_t *used)
{
	struct stat st;
	bool seen = lstat(f->name, &st) == 0;

	if (seen && S_ISLNK(st.st_mode)) {
		snprintf(f->why, sizeof(f->why), "a symbolic link (not followed)");
		return;
	}
	if (seen && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    st.st_size <= (off_t)SM_SRCTEXT_MAX_BYTES &&
	    (size_t)st.st_size > SM_SRCTEXT_MAX_TOTAL - *used) {
		snprintf(f->why, sizeof(f->why), "the source files read for one "
		         "listing are at their cap of %zu MiB (this and any later "
		         "one)", SM_SRCTEXT_MAX_TOTAL >> 20);
		f->over = true;
		return;
	}
	/* O_NOFOLLOW: a link put there since is refused too (ELOOP) */
	f->own = sm_read_input_flags(f->name, SM_SRCTEXT_MAX_BYTES, O_NOFOLLOW,
	                             &f->len, f->why, sizeof(f->why));
	const char *nul = f->own ? memchr(f->own, '\0', f->len) : NULL;
	if (nul) {
		snprintf(f->why, sizeof(f->why), "not text (a NUL byte at byte "
		         "%zu)", (size_t)(nul - f->own));
		free(f->own);
		f->own = NULL;
	}
	f->text = f->own;
	*used += f->text ? f->len : 0;
}

/* Where each line of f starts: 0, -1 out of memory. */
static int index_lines(struct srcfile *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->len; i++)
		n += f->text[i] == '\n';
	n += f->len && f->text[f->len - 1] != '\n';
	if (!(f->start = malloc((n ? n : 1) * sizeof(*f->start))))
		return -1;
	f->nlines = 0;
	for (size_t i = 0; i < f->len; i++)
		if (i == 0 || f->text[i - 1] == '\n')
			f->start[f->nlines++] = (uint32_t)i;
	return 0;
}

/* The entry of file, read at its first use; NULL when there is no room
 * for another (or out of memory: *oom). */
static struct srcfile *file_of(struct sm_srctext *t, const char *name,
                               bool *oom)
{
	for (unsigned i = 0; i < t->n; i++)
		if (!strcmp(t->f[i].name, name))
			return &t->f[i];
	if (t->n == SM_SRCTEXT_MAX_FILES)
		return NULL;
	struct srcfile *f = &t->f[t->n];
	memset(f, 0, sizeof(*f));
	if (!(f->name = strdup(name)))
		return *oom = true, NULL;
	t->n++;
	if (t->builtin) {
		const struct sm_source *s = sm_reader_source(name);
		if (s)
			f->text = s->text, f->len = s->len;
		else
			snprintf(f->why, sizeof(f->why), "not one of the built-in "
			         "readers' sources embedded in selfmon");
	} else {
		read_file(f, &t->used);
	}
	if (f->text && index_lines(f) < 0) {
		f->text = NULL;
		return *oom = true, NULL;
	}
	if (f->own) /* the index counts against the cap as well */
		t->used += f->nlines * sizeof(*f->start);
	return f;
}

/* Line k (from 0) of f into buf, shaped as srctext.h says. */
static void shape(const struct srcfile *f, size_t k, char *buf, size_t n)
{
	size_t cap = n - 1 < SM_SRCTEXT_LINE ? n - 1 : SM_SRCTEXT_LINE;
	const char *p = f->text + f->start[k], *end = f->text + f->len;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t len = (size_t)((nl ? nl : end) - p), o = 0, col = 0;

	if (len && p[len - 1] == '\r')
		len--;
	for (size_t i = 0; i < len; i++) {
		size_t w = p[i] == '\t' ? 8 - col % 8 : 1;
		if (o + w > cap) { /* cut at a character's start, then "..." */
			while (o > 0 && cap - o < 3)
				o--;
			while (o > 0 && ((unsigned char)buf[o] & 0xc0) == 0x80)
				o--;
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (p[i] == '\t')
			memset(buf + o, ' ', w);
		else
			buf[o] = p[i];
		o += w;
		/* a column is a character: UTF-8 continuation bytes add none */
		col += ((unsigned char)p[i] & 0xc0) != 0x80 ? w : 0;
	}
	buf[o] = '\0';
	sm_printable(buf);
}

/* *note = "source of FILE not shown: WHY" (FILE printable). */
static int say(char **note, const char *file, const char *why)
{
	char *name = strdup(file);

	if (!name)
		return -1;
	sm_printable(name);
	int rc = asprintf(note, "source of %s not shown: %s", name, why);
	free(name);
	if (rc < 0)
		return *note = NULL, -1;
	return 0;
}

int sm_srctext_line(struct sm_srctext *t, const char *file, int line,
                    char *buf, size_t n, char **note)
{
	bool oom = false;
	char why[160];

	*note = NULL;
	if (n)
		buf[0] = '\0';
	if (!t || n < 4 || line <= 0)
		return 0;
	struct srcfile *f = file_of(t, file, &oom);
	if (oom)
		return -1;
	if (!f) {
		if (t->said_many)
			return 0;
		t->said_many = true;
		snprintf(why, sizeof(why), "more than %d source files in one "
		         "listing", SM_SRCTEXT_MAX_FILES);
		return say(note, file, why) < 0 ? -1 : 0;
	}
	if (f->text && (size_t)line <= f->nlines) {
		shape(f, (size_t)line - 1, buf, n);
		return 1;
	}
	if (f->said || (f->over && t->said_over))
		return 0; /* said once: for the file, or for all over the cap */
	f->said = true;
	t->said_over |= f->over;
	if (f->text)
		snprintf(why, sizeof(why), "line %d is past its end (%zu lines: "
		         "changed since it was compiled?)", line, f->nlines);
	return say(note, file, f->text ? why : f->why) < 0 ? -1 : 0;
}
