/*
 * json_read.c — the strict JSON reader (see json_read.h).
 *
 * A recursive descent over the text; every value is built in place, so
 * that on an error the partial tree is freed the same way as a whole one.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

#define MAX_NUMBER 64 /* characters in a number: more is no JSON of ours */

struct parser {
	const unsigned char *s;
	size_t len, pos;
	int depth;
	char *err;
	size_t errn;
};

static int fail(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "line L, column C: what" at p->pos (columns count bytes, from 1). */
static int fail(struct parser *p, const char *fmt, ...)
{
	size_t line = 1, col = 1;
	va_list ap;

	for (size_t i = 0; i < p->pos && i < p->len; i++, col++)
		if (p->s[i] == '\n')
			line++, col = 0;
	int k = snprintf(p->err, p->errn, "line %zu, column %zu: ", line, col);
	if (k >= 0 && (size_t)k < p->errn) {
		va_start(ap, fmt);
		vsnprintf(p->err + k, p->errn - (size_t)k, fmt, ap);
		va_end(ap);
	}
	for (char *c = p->err; p->errn && *c; c++) /* one line: a key may */
		if ((unsigned char)*c < 0x20 || *c == 0x7f) /* hold any byte */
			*c = '?';
	return -1;
}

static int oom(struct parser *p)
{
	return fail(p, "out of memory");
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
	                           p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

/* What is at pos, for messages: a printable character or its code. */
static const char *seen(const struct parser *p, char buf[16])
{
	if (p->pos >= p->len)
		return "the end of the input";
	unsigned char c = p->s[p->pos];
	if (c >= 0x21 && c < 0x7f)
		snprintf(buf, 16, "'%c'", c);
	else
		snprintf(buf, 16, "byte 0x%02x", c);
	return buf;
}

/* The length of the UTF-8 sequence at s (n bytes left): 1..4, or 0 if it
 * is not well formed (overlong, a surrogate, above U+10FFFF, cut). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], need, min, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		need = 2, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 3, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	if (n <= need)
		return 0;
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need + 1;
}

static void put_utf8(char **o, unsigned cp)
{
	unsigned char *q = (unsigned char *)*o;

	if (cp < 0x80) {
		*q++ = (unsigned char)cp;
	} else if (cp < 0x800) {
		*q++ = (unsigned char)(0xc0 | cp >> 6);
		*q++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*q++ = (unsigned char)(0xe0 | cp >> 12);
		*q++ = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		*q++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else {
		*q++ = (unsigned char)(0xf0 | cp >> 18);
		*q++ = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		*q++ = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		*q++ = (unsigned char)(0x80 | (cp & 0x3f));
	}
	*o = (char *)q;
}

/* Four hex digits at pos: the value, or -1. */
static long hex4(struct parser *p)
{
	long v = 0;

	if (p->len - p->pos < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		unsigned char c = p->s[p->pos + i];
		int d = c >= '0' && c <= '9' ? c - '0'
		      : c >= 'a' && c <= 'f' ? c - 'a' + 10
		      : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	p->pos += 4;
	return v;
}

/* \uXXXX (pos after the 'u'), a surrogate pair joined: the code point,
 * or -1 after the error. */
static long unicode_escape(struct parser *p)
{
	long hi = hex4(p), lo;

	if (hi < 0)
		return fail(p, "\\u needs four hex digits");
	if (hi == 0)
		return fail(p, "\\u0000 in a string");
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return fail(p, "a lone low surrogate \\u%04lx", hi);
	if (hi < 0xd800 || hi > 0xdbff)
		return hi;
	if (p->len - p->pos < 2 || p->s[p->pos] != '\\' ||
	    p->s[p->pos + 1] != 'u')
		return fail(p, "a high surrogate \\u%04lx without its low half", hi);
	p->pos += 2;
	if ((lo = hex4(p)) < 0xdc00 || lo > 0xdfff)
		return fail(p, "a high surrogate \\u%04lx without its low half", hi);
	return 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
}

/* One escape (pos after the backslash) decoded at *o: 0, or -1. */
static int escape(struct parser *p, char **o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";

	if (p->pos >= p->len)
		return fail(p, "a string is not closed");
	char c = (char)p->s[p->pos++];
	const char *k = c ? strchr(from, c) : NULL;
	if (k) {
		*(*o)++ = to[k - from];
		return 0;
	}
	if (c != 'u') {
		p->pos--;
		return fail(p, "a bad escape in a string");
	}
	long cp = unicode_escape(p);
	if (cp < 0)
		return -1;
	put_utf8(o, (unsigned)cp);
	return 0;
}

/* A string (pos at its opening quote), decoded into a new buffer at *out:
 * 0, or -1.  The decoded text is never longer than the quoted one. */
static int parse_string(struct parser *p, char **out)
{
	size_t end = ++p->pos;

	while (end < p->len && p->s[end] != '"')
		end += p->s[end] == '\\' ? 2 : 1;
	if (end >= p->len)
		return fail(p, "a string is not closed");
	char *buf = malloc(end - p->pos + 1), *o = buf;
	if (!buf)
		return oom(p);
	while (p->s[p->pos] != '"') {
		unsigned char c = p->s[p->pos];
		size_t n;
		if (c == '\\') {
			p->pos++;
			if (escape(p, &o) < 0)
				return free(buf), -1;
		} else if (c < 0x20) {
			return free(buf), fail(p, "a control byte 0x%02x in a string", c);
		} else if ((n = utf8_len(p->s + p->pos, p->len - p->pos)) == 0) {
			return free(buf), fail(p, "not UTF-8 (byte 0x%02x)", c);
		} else {
			memcpy(o, p->s + p->pos, n);
			o += n;
			p->pos += n;
		}
	}
	p->pos++;
	*o = '\0';
	*out = buf;
	return 0;
}

static bool digit_at(const struct parser *p, size_t i)
{
	return i < p->len && p->s[i] >= '0' && p->s[i] <= '9';
}

/* Digits from *i; false if there is none. */
static bool digits(const struct parser *p, size_t *i)
{
	if (!digit_at(p, *i))
		return false;
	while (digit_at(p, *i))
		(*i)++;
	return true;
}

static int parse_number(struct parser *p, struct jr_value *v)
{
	size_t i = p->pos;

	if (i < p->len && p->s[i] == '-')
		i++;
	if (i < p->len && p->s[i] == '0')
		i++;
	else if (!digits(p, &i))
		return fail(p, "a bad number");
	if (i < p->len && p->s[i] == '.' && (++i, !digits(p, &i)))
		return fail(p, "a bad number (no digit after '.')");
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		if (++i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (!digits(p, &i))
			return fail(p, "a bad number (no digit in the exponent)");
	}
	if (i - p->pos > MAX_NUMBER)
		return fail(p, "a number of more than %d characters", MAX_NUMBER);
	if (!(v->text = strndup((const char *)p->s + p->pos, i - p->pos)))
		return oom(p);
	v->type = JR_NUMBER;
	p->pos = i;
	return 0;
}

static int parse_value(struct parser *p, struct jr_value *v);

/* Room for one more member: 0, or -1. */
static int grow(struct parser *p, struct jr_value *v, size_t *cap,
                bool keys)
{
	if (v->n < *cap)
		return 0;
	size_t want = *cap ? 2 * *cap : 8;
	struct jr_value *items = realloc(v->items, want * sizeof(*items));
	if (!items)
		return oom(p);
	v->items = items;
	if (keys) {
		char **k = realloc(v->keys, want * sizeof(*k));
		if (!k)
			return oom(p);
		v->keys = k;
	}
	*cap = want;
	return 0;
}

/* After a member: ',' (then true) or the closing bracket (false, passed);
 * -1 on anything else. */
static int next_member(struct parser *p, char close)
{
	char buf[16];

	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ',') {
		p->pos++;
		return 1;
	}
	if (p->pos < p->len && p->s[p->pos] == (unsigned char)close) {
		p->pos++;
		return 0;
	}
	return fail(p, "expected ',' or '%c', not %s", close, seen(p, buf));
}

static int parse_array(struct parser *p, struct jr_value *v)
{
	size_t cap = 0;
	int more;

	v->type = JR_ARRAY;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ']')
		return p->pos++, 0;
	do {
		if (grow(p, v, &cap, false) < 0)
			return -1;
		memset(&v->items[v->n], 0, sizeof(v->items[0]));
		if (parse_value(p, &v->items[v->n++]) < 0)
			return -1;
	} while ((more = next_member(p, ']')) == 1);
	return more;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* No key twice in v: 0, or -1 naming one (pos at the object's end). */
static int unique_keys(struct parser *p, const struct jr_value *v)
{
	if (v->n < 2)
		return 0;
	char **k = malloc(v->n * sizeof(*k));
	if (!k)
		return oom(p);
	memcpy(k, v->keys, v->n * sizeof(*k));
	qsort(k, v->n, sizeof(*k), cmp_key);
	for (size_t i = 1; i < v->n; i++)
		if (!strcmp(k[i - 1], k[i])) {
			p->pos--; /* at the closing brace */
			int rc = fail(p, "the key \"%.60s\" twice in one object", k[i]);
			free(k);
			return rc;
		}
	free(k);
	return 0;
}

/* "key": at pos into keys[n] (NULL first, so a failure frees right). */
static int parse_key(struct parser *p, struct jr_value *v)
{
	char buf[16];

	v->keys[v->n] = NULL;
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	v->n++;
	skip_ws(p);
	if (p->pos >= p->len || p->s[p->pos] != '"')
		return fail(p, "expected a key (a string), not %s", seen(p, buf));
	if (parse_string(p, &v->keys[v->n - 1]) < 0)
		return -1;
	skip_ws(p);
	if (p->pos >= p->len || p->s[p->pos] != ':')
		return fail(p, "expected ':' after a key, not %s", seen(p, buf));
	p->pos++;
	return 0;
}

static int parse_object(struct parser *p, struct jr_value *v)
{
	size_t cap = 0;
	int more;

	v->type = JR_OBJECT;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == '}')
		return p->pos++, 0;
	do {
		if (grow(p, v, &cap, true) < 0 || parse_key(p, v) < 0 ||
		    parse_value(p, &v->items[v->n - 1]) < 0)
			return -1;
	} while ((more = next_member(p, '}')) == 1);
	return more < 0 ? -1 : unique_keys(p, v);
}

/* true, false or null at pos. */
static int parse_word(struct parser *p, struct jr_value *v)
{
	static const struct { const char *w; enum jr_type t; bool b; } words[] = {
		{ "true", JR_BOOL, true }, { "false", JR_BOOL, false },
		{ "null", JR_NULL, false },
	};
	char buf[16];

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t n = strlen(words[i].w);
		if (p->len - p->pos >= n && !memcmp(p->s + p->pos, words[i].w, n)) {
			v->type = words[i].t;
			v->b = words[i].b;
			p->pos += n;
			return 0;
		}
	}
	return fail(p, "expected a value, not %s", seen(p, buf));
}

static int parse_value(struct parser *p, struct jr_value *v)
{
	int rc;

	skip_ws(p);
	if (p->pos >= p->len)
		return fail(p, "expected a value, not the end of the input");
	unsigned char c = p->s[p->pos];
	if (c != '[' && c != '{') {
		if (c == '"') {
			v->type = JR_STRING;
			return parse_string(p, &v->text);
		}
		return c == '-' || (c >= '0' && c <= '9') ? parse_number(p, v)
		                                          : parse_word(p, v);
	}
	if (++p->depth > JSON_READ_MAX_DEPTH)
		return fail(p, "nested more than %d deep", JSON_READ_MAX_DEPTH);
	rc = c == '[' ? parse_array(p, v) : parse_object(p, v);
	p->depth--;
	return rc;
}

int jr_parse(const char *text, size_t len, struct jr_value *out, char *err,
             size_t errn)
{
	struct parser p = { (const unsigned char *)text, len, 0, 0, err, errn };
	char buf[16];

	memset(out, 0, sizeof(*out));
	if (parse_value(&p, out) == 0) {
		skip_ws(&p);
		if (p.pos == p.len)
			return 0;
		fail(&p, "%s after the document", seen(&p, buf));
	}
	jr_free(out);
	return -1;
}

void jr_free(struct jr_value *v)
{
	for (size_t i = 0; i < v->n; i++) {
		jr_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->text);
	memset(v, 0, sizeof(*v));
}

const struct jr_value *jr_get(const struct jr_value *obj, const char *key)
{
	if (!obj || obj->type != JR_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}

const char *jr_str(const struct jr_value *v)
{
	return v && v->type == JR_STRING ? v->text : NULL;
}

bool jr_u64(const struct jr_value *v, uint64_t *out)
{
	uint64_t x = 0;

	if (!v || v->type != JR_NUMBER || v->text[0] == '-' ||
	    (v->text[0] == '0' && v->text[1]))
		return false;
	for (const char *c = v->text; *c; c++) {
		if (*c < '0' || *c > '9' || x > (UINT64_MAX - (uint64_t)(*c - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(*c - '0');
	}
	*out = x;
	return true;
}
