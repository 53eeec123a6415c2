/*
 * lines.c — the line formats' common reader (see lines.h): lines, tokens,
 * key tables and the "NAME:LINE:COL: message" errors.
 *
 * Owns: the walk over a text, the checks on a line as such and its
 * tokens.  Must not know any format's directives or keys: those are the
 * tables its callers pass.  No global state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"

void sm_lines_init(struct sm_lines *r, const struct sm_line_format *f,
                   const char *name, const char *text, char *err,
                   size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->fmt = f;
	r->name = name ? name : "";
	r->err = err;
	r->errlen = errlen;
	r->next = text ? text : "";
	r->raw = r->next;
	r->endcol = 1;
	if (err && errlen)
		err[0] = '\0';
}

void sm_lines_free(struct sm_lines *r)
{
	free(r->buf);
	free(r->tok);
	r->buf = NULL;
	r->tok = NULL;
	r->bufcap = 0;
	r->tokcap = 0;
	r->ntok = 0;
}

static int vfail(struct sm_lines *r, bool where, unsigned col,
                 const char *fmt, va_list ap)
{
	int n;

	if (!r->err || !r->errlen)
		return -1;
	n = where ? snprintf(r->err, r->errlen, "%s:%u:%u: ", r->name, r->lineno,
	                     col)
	          : snprintf(r->err, r->errlen, "%s: ", r->name);
	if (n >= 0 && (size_t)n < r->errlen)
		vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	return -1;
}

int sm_line_fail(struct sm_lines *r, unsigned col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, true, col, fmt, ap);
	va_end(ap);
	return -1;
}

int sm_lines_fail(struct sm_lines *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, false, 0, fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_blank(const struct sm_lines *r, char c)
{
	return c && strchr(r->fmt->blanks, c);
}

/* The line as such: its length and its bytes. */
static int check_line(struct sm_lines *r)
{
	const struct sm_line_format *f = r->fmt;

	if (r->len > f->max_len)
		return sm_line_fail(r, f->max_len + 1, "line too long (max %u "
		                    "bytes)", f->max_len);
	for (size_t i = 0; f->controls_noun && i < r->len; i++) {
		unsigned char c = (unsigned char)r->raw[i];
		if ((c < 0x20 || c == 0x7f) && !is_blank(r, (char)c))
			return sm_line_fail(r, (unsigned)i + 1, "control character in "
			                    "a %s line", f->controls_noun);
	}
	return 0;
}

/* Room for a copy of the line and one more token. */
static int grow(struct sm_lines *r, size_t bytes, unsigned toks)
{
	if (bytes > r->bufcap) {
		size_t cap = r->bufcap ? r->bufcap : 256;
		while (cap < bytes)
			cap *= 2;
		char *b = realloc(r->buf, cap);
		if (!b)
			return sm_lines_fail(r, "out of memory");
		r->buf = b;
		r->bufcap = cap;
	}
	if (toks > r->tokcap) {
		unsigned cap = r->tokcap ? 2 * r->tokcap : 16;
		struct sm_tok *t = realloc(r->tok, cap * sizeof(*t));
		if (!t)
			return sm_lines_fail(r, "out of memory");
		r->tok = t;
		r->tokcap = cap;
	}
	return 0;
}

/* Split the copy in place: 1 with tokens, 0 none (blank or comment), -1
 * too many. */
static int tokenize(struct sm_lines *r)
{
	const struct sm_line_format *f = r->fmt;
	char *q = r->buf;

	if (f->comment == SM_COMMENT_ANYWHERE && (q = strchr(r->buf, '#')))
		*q = '\0';
	q = r->buf;
	while (is_blank(r, *q))
		q++;
	if (f->comment == SM_COMMENT_LINE && *q == '#')
		return 0;
	while (*q) {
		if (is_blank(r, *q)) {
			*q++ = '\0';
			continue;
		}
		unsigned col = (unsigned)(q - r->buf) + 1;
		if (f->max_tokens && r->ntok == f->max_tokens)
			return sm_line_fail(r, col, "too many fields (max %u)",
			                    f->max_tokens);
		if (grow(r, 0, r->ntok + 1) < 0)
			return -1;
		r->tok[r->ntok++] = (struct sm_tok){ q, col };
		while (*q && !is_blank(r, *q))
			q++;
		r->endcol = (unsigned)(q - r->buf) + 1;
	}
	return r->ntok > 0;
}

int sm_lines_next(struct sm_lines *r)
{
	while (r->next) {
		const char *line = r->next;
		size_t len = strcspn(line, "\n");
		int rc;

		r->lineno++;
		r->ntok = 0;
		r->endcol = 1;
		memset(r->seen, 0, sizeof(r->seen));
		r->raw = line;
		r->len = 0;
		if (!*line) {
			r->next = NULL;
			return 0;
		}
		r->next = line + len + (line[len] == '\n');
		if (len && line[len - 1] == '\r')
			len--;
		r->len = len;
		if (check_line(r) < 0 || grow(r, len + 1, 0) < 0)
			return -1;
		memcpy(r->buf, line, len);
		r->buf[len] = '\0';
		if ((rc = tokenize(r)) != 0)
			return rc;
	}
	return 0;
}

struct sm_tok *sm_line_word(struct sm_lines *r, unsigned i, const char *what)
{
	if (i < r->ntok && !strchr(r->tok[i].s, '='))
		return &r->tok[i];
	sm_line_fail(r, i < r->ntok ? r->tok[i].col : r->endcol, "missing %s",
	             what);
	return NULL;
}

int sm_line_no_more(struct sm_lines *r, unsigned i)
{
	if (i < r->ntok)
		return sm_line_fail(r, r->tok[i].col, "unexpected '%s'",
		                    r->tok[i].s);
	return 0;
}

const char *sm_line_rest(const struct sm_lines *r, unsigned col, size_t *len)
{
	size_t off = col ? col - 1 : 0;

	if (off > r->len)
		off = r->len;
	*len = r->len - off;
	return r->raw + off;
}

const char *sm_keys_name(struct sm_keys k, size_t i)
{
	return *(const char *const *)(const void *)((const char *)k.first +
	                                            i * k.stride);
}

int sm_keys_find(struct sm_keys k, const char *name)
{
	for (size_t i = 0; name && i < k.n; i++) {
		const char *s = sm_keys_name(k, i);
		if (s && strcmp(s, name) == 0)
			return (int)i;
	}
	return -1;
}

int sm_line_key(struct sm_lines *r, struct sm_tok *t, struct sm_keys k,
                const char *owner, struct sm_tok *val)
{
	char *eq = strchr(t->s, '=');
	int i;

	if (!eq)
		return sm_line_fail(r, t->col, "missing '=' in '%s'", t->s);
	*eq = '\0';
	*val = (struct sm_tok){ eq + 1, t->col + (unsigned)(eq + 1 - t->s) };
	if ((i = sm_keys_find(k, t->s)) < 0)
		return sm_line_fail(r, t->col, "unknown key '%s' for '%s'", t->s,
		                    owner);
	if (i >= SM_LINE_MAX_KEYS) /* the format's table is too long */
		return sm_line_fail(r, t->col, "key '%s' is past the %d keys a "
		                    "table may have", t->s, SM_LINE_MAX_KEYS);
	if (r->seen[i])
		return sm_line_fail(r, t->col, "duplicate key '%s'", t->s);
	r->seen[i] = t->col;
	return i;
}

char *sm_split_next(char **p, char sep)
{
	char *it = *p, *end;

	if (!it)
		return NULL;
	end = strchr(it, sep);
	*p = end ? end + 1 : NULL;
	if (end)
		*end = '\0';
	return it;
}
