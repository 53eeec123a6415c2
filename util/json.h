/*
 * json.h — a small JSON writer for the command's machine output.
 *
 * Owns: emitting objects, arrays, numbers, strings (escaped) and booleans
 * to a FILE with commas handled.  It knows nothing of selfmon's data.
 */
#ifndef SELFMON_JSON_H
#define SELFMON_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
void json_begin(struct json *j, const char *key, char bracket); /* '{' '[' */
void json_end(struct json *j, char bracket);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_bool(struct json *j, const char *key, bool v);
void json_str(struct json *j, const char *key, const char *s);
/* text as it is: a number as written, true, false or null. */
void json_raw(struct json *j, const char *key, const char *text);

#endif
