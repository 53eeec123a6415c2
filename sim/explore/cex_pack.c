/*
 * cex_pack.c — the packed counterexample format (see cex_pack.h): its
 * writer and its strict reader.
 *
 * Owns: the layout of a packed file and every check on it as input (the
 * order of its parts, their sizes against the caps, the text parts'
 * bytes).  Must not interpret the parts: the trace's text is
 * cex_trace.c's, the hashes' meaning cmd_replay.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cex_pack.h"

bool sm_cex_pack_is(const void *data, size_t len)
{
	size_t m = strlen(SM_PACK_MAGIC);

	return len >= m && !memcmp(data, SM_PACK_MAGIC, m);
}

static int part(FILE *f, const char *key, const void *bytes, size_t len)
{
	return fprintf(f, "%s %zu\n", key, len) < 0 ||
	       fwrite(bytes, 1, len, f) != len || fputc('\n', f) == EOF
	       ? -1 : 0;
}

int sm_cex_pack_write(FILE *f, const struct sm_cex_pack *p)
{
	if (fputs(SM_PACK_MAGIC, f) == EOF ||
	    fprintf(f, "selfmon %s\n", p->version) < 0 ||
	    part(f, "trace", p->trace, p->trace_len) < 0 ||
	    part(f, "scenario", p->scenario, p->scenario_len) < 0 ||
	    (p->object && part(f, "object", p->object, p->object_len) < 0) ||
	    fputs("end\n", f) == EOF)
		return -1;
	return 0;
}

/* ---- reading ---------------------------------------------------------- */

struct cursor {
	const char *name;
	const uint8_t *data;
	size_t len, off;
	char *err;
	size_t n;
};

static int fail(struct cursor *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->n, "%s: byte %zu: %s", c->name, c->off, msg);
	return -1;
}

/* The line at the cursor (without its '\n', at most max bytes) into
 * line; the cursor moves past it.  0, or -1. */
static int line(struct cursor *c, char *line, size_t max)
{
	const uint8_t *nl = memchr(c->data + c->off, '\n', c->len - c->off);
	size_t k = nl ? (size_t)(nl - (c->data + c->off)) : c->len - c->off;

	if (!nl)
		return fail(c, "truncated (a line without its newline; not a "
		            "whole packed counterexample)");
	if (k >= max)
		return fail(c, "line longer than %zu bytes", max - 1);
	for (size_t i = 0; i < k; i++)
		if (c->data[c->off + i] < 0x20 || c->data[c->off + i] > 0x7e)
			return fail(c, "byte 0x%02x in a header line",
			            c->data[c->off + i]);
	memcpy(line, c->data + c->off, k);
	line[k] = '\0';
	c->off += k + 1;
	return 0;
}

/* "KEY N\n" then N bytes and '\n', N at most max: *out a copy (with a
 * NUL after it), *len N; text parts may hold no NUL.  Absent (the next
 * line is another key) when optional: 1. */
static int take_part(struct cursor *c, const char *key, size_t max, bool text,
                     bool optional, uint8_t **out, size_t *len)
{
	char l[64], want[32];
	size_t start = c->off, klen = (size_t)snprintf(want, sizeof(want), "%s ",
	                                               key);
	unsigned long long v;
	char *end;

	if (line(c, l, sizeof(l)) < 0)
		return -1;
	if (strncmp(l, want, klen)) {
		if (optional)
			return c->off = start, 1;
		c->off = start;
		return fail(c, "expected '%s N', got '%s'", key, l);
	}
	const char *num = l + klen;
	errno = 0;
	v = strtoull(num, &end, 10);
	if (!*num || *end || *num < '0' || *num > '9' || errno ||
	    (num[0] == '0' && num[1]))
		return c->off = start, fail(c, "bad size '%s' for %s", num, key);
	if (v > max)
		return c->off = start, fail(c, "%s of %llu bytes is over the cap "
		                            "of %zu", key, v, max);
	if (c->len - c->off < v + 1)
		return fail(c, "truncated: %s says %llu bytes, %zu left", key, v,
		            c->len - c->off);
	if (text && memchr(c->data + c->off, '\0', (size_t)v))
		return fail(c, "%s contains a NUL byte", key);
	if (c->data[c->off + v] != '\n')
		return c->off += (size_t)v, fail(c, "expected a newline after the "
		                                 "%s's %llu bytes", key, v);
	if (!(*out = malloc((size_t)v + 1)))
		return fail(c, "out of memory");
	memcpy(*out, c->data + c->off, (size_t)v);
	(*out)[v] = '\0';
	*len = (size_t)v;
	c->off += (size_t)v + 1;
	return 0;
}

int sm_cex_pack_parse(const char *name, const uint8_t *data, size_t len,
                      struct sm_cex_pack *p, char *err, size_t n)
{
	struct cursor c = { name, data, len, 0, err, n };
	char l[SM_PACK_VERSION_MAX + 16];

	memset(p, 0, sizeof(*p));
	if (!sm_cex_pack_is(data, len))
		return fail(&c, "not a packed counterexample (no '%.*s' line)",
		            (int)strlen(SM_PACK_MAGIC) - 1, SM_PACK_MAGIC);
	c.off = strlen(SM_PACK_MAGIC);
	if (line(&c, l, sizeof(l)) < 0)
		goto bad;
	if (strncmp(l, "selfmon ", 8) || !l[8]) {
		c.off -= strlen(l) + 1;
		fail(&c, "expected 'selfmon VERSION', got '%s'", l);
		goto bad;
	}
	if (!(p->version = strdup(l + 8))) {
		fail(&c, "out of memory");
		goto bad;
	}
	if (take_part(&c, "trace", SM_TRACE_MAX_BYTES, true, false,
	              (uint8_t **)&p->trace, &p->trace_len) ||
	    take_part(&c, "scenario", SM_SCENARIO_MAX_BYTES, true, false,
	              (uint8_t **)&p->scenario, &p->scenario_len) ||
	    take_part(&c, "object", SM_ELF_MAX_BYTES, false, true, &p->object,
	              &p->object_len) < 0 ||
	    line(&c, l, sizeof(l)) < 0)
		goto bad;
	if (strcmp(l, "end")) {
		c.off -= strlen(l) + 1;
		fail(&c, "expected 'end', got '%s'", l);
		goto bad;
	}
	if (c.off != len) {
		fail(&c, "%zu bytes after 'end'", len - c.off);
		goto bad;
	}
	return 0;
bad:
	sm_cex_pack_free(p);
	return -1;
}

void sm_cex_pack_free(struct sm_cex_pack *p)
{
	free(p->version);
	free(p->trace);
	free(p->scenario);
	free(p->object);
	memset(p, 0, sizeof(*p));
}
