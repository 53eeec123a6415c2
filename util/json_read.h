/*
 * json_read.h — a small, strict JSON reader for the documents selfmon
 * itself writes (`check --json`, read back by `merge`).
 *
 * Owns: parsing RFC 8259 JSON text into a tree — UTF-8 only, no NUL or
 * control byte in a string, no duplicate key in an object, nothing after
 * the value, at most JSON_READ_MAX_DEPTH levels — and looking values up.
 * Numbers are kept as their text.  Every error is one line with the line
 * and column where it is.  It knows nothing of selfmon's data.
 */
#ifndef SELFMON_JSON_READ_H
#define SELFMON_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_READ_MAX_DEPTH 64

enum jr_type { JR_NULL, JR_BOOL, JR_NUMBER, JR_STRING, JR_ARRAY, JR_OBJECT };

struct jr_value {
	enum jr_type type;
	bool b;                   /* JR_BOOL */
	char *text;               /* JR_STRING decoded, JR_NUMBER as written */
	size_t n;                 /* JR_ARRAY, JR_OBJECT: how many */
	struct jr_value *items;   /* ... their values */
	char **keys;              /* JR_OBJECT: their keys */
};

/* Parse text[0..len): 0 with the tree in *out (jr_free it), or -1 with
 * "line L, column C: what" in err and nothing to free. */
int jr_parse(const char *text, size_t len, struct jr_value *out, char *err,
             size_t errn);
void jr_free(struct jr_value *v);

/* The value of key in an object, or NULL (also when obj is no object). */
const struct jr_value *jr_get(const struct jr_value *obj, const char *key);
/* A string's text, or NULL when v is NULL or no string. */
const char *jr_str(const struct jr_value *v);
/* A number that is a whole decimal without sign, exponent or fraction,
 * up to UINT64_MAX: true with it in *out. */
bool jr_u64(const struct jr_value *v, uint64_t *out);

#endif
