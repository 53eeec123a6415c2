/*
 * json.c — the JSON writer (see json.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

/* Valid JSON for any bytes: controls escaped, and a byte that is not
 * part of a UTF-8 sequence written as U+FFFD (sm_printable() marks
 * exactly those bytes and the controls). */
static void put_string(FILE *f, const char *s)
{
	size_t len = strlen(s);
	char *mark = malloc(len + 1);

	if (mark) {
		memcpy(mark, s, len + 1);
		sm_printable(mark);
	}
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else if (c >= 0x80 && (!mark || mark[i] == '?'))
			fputs("\xef\xbf\xbd", f); /* U+FFFD: not UTF-8, or a C1 control */
		else
			fputc(c, f);
	}
	fputc('"', f);
	free(mark);
}

/* Comma and key before a value; key is ignored inside arrays (NULL). */
static void prefix(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (key) {
		put_string(j->f, key);
		fputc(':', j->f);
	}
}

void json_begin(struct json *j, const char *key, char bracket)
{
	prefix(j, key);
	fputc(bracket, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

void json_end(struct json *j, char bracket)
{
	fputc(bracket == '{' ? '}' : ']', j->f);
	if (j->depth > 0)
		j->depth--;
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	prefix(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	prefix(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	prefix(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_str(struct json *j, const char *key, const char *s)
{
	prefix(j, key);
	put_string(j->f, s);
}

void json_raw(struct json *j, const char *key, const char *text)
{
	prefix(j, key);
	fputs(text, j->f);
}
