/*
 * json.c — the JSON writer (see json.h).
 */
#include <inttypes.h>

#include "json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
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
