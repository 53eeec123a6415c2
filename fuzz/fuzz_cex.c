/*
 * fuzz_cex.c — libFuzzer target: what `replay FILE` reads, a counterexample
 * trace (cex_trace.c) or a packed counterexample (cex_pack.c) and the
 * trace inside it.  Every packed file the parser accepts must write back
 * to the same bytes.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "cex_pack.h"
#include "cex_trace.h"
#include "fuzz.h"

static void trace(const char *text)
{
	struct sm_cex_trace t;
	char err[512];

	if (sm_cex_trace_parse("fuzz", text, &t, err, sizeof(err)) == 0)
		sm_cex_trace_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_cex_pack p;
	char err[512];

	if (!sm_cex_pack_is(data, size)) {
		char *text = fuzz_text(data, size);
		if (text && !memchr(data, '\0', size))
			trace(text);
		free(text);
		return 0;
	}
	if (sm_cex_pack_parse("fuzz", data, size, &p, err, sizeof(err)) < 0)
		return 0;
	trace(p.trace);
	char *again = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&again, &len);
	if (!f || sm_cex_pack_write(f, &p) < 0 || fclose(f) != 0)
		abort();
	if (len != size || memcmp(again, data, size))
		abort();
	free(again);
	sm_cex_pack_free(&p);
	return 0;
}
