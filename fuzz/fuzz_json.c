/*
 * fuzz_json.c — libFuzzer target: the strict JSON reader that `merge`
 * reads shard documents with (json_read.c).  Every text it accepts must
 * write back (json.c) to a text it accepts again, and that text must
 * write back to itself.  Seeds: fuzz/seeds/json (check --json outputs);
 * regressions: fuzz/regress/json.
 */
#include <stdio.h>

#include "fuzz.h"
#include "json.h"
#include "json_read.h"

static void put(struct json *js, const char *key, const struct jr_value *v)
{
	switch (v->type) {
	case JR_NULL:
		json_raw(js, key, "null");
		break;
	case JR_BOOL:
		json_bool(js, key, v->b);
		break;
	case JR_NUMBER:
		json_raw(js, key, v->text);
		break;
	case JR_STRING:
		json_str(js, key, v->text);
		break;
	case JR_ARRAY: case JR_OBJECT:
		json_begin(js, key, v->type == JR_ARRAY ? '[' : '{');
		for (size_t i = 0; i < v->n; i++)
			put(js, v->type == JR_OBJECT ? v->keys[i] : NULL, &v->items[i]);
		json_end(js, v->type == JR_ARRAY ? '[' : '{');
		break;
	}
}

/* v as text (malloc'ed, *n bytes), or NULL out of memory. */
static char *write_back(const struct jr_value *v, size_t *n)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, n);
	struct json js;

	if (!f)
		return NULL;
	json_init(&js, f);
	put(&js, NULL, v);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jr_value a, b;
	char err[256];
	size_t n1, n2;

	if (jr_parse((const char *)data, size, &a, err, sizeof(err)) < 0) {
		if (!memchr(err, ':', sizeof(err)) || memchr(err, '\n', strlen(err)))
			abort(); /* one line, with its place */
		return 0;
	}
	char *one = write_back(&a, &n1);
	jr_free(&a);
	if (!one)
		return 0;
	if (jr_parse(one, n1, &b, err, sizeof(err)) < 0)
		abort(); /* what was written must read */
	char *two = write_back(&b, &n2);
	jr_free(&b);
	if (two && (n1 != n2 || memcmp(one, two, n1)))
		abort(); /* and write back the same */
	free(one);
	free(two);
	return 0;
}
