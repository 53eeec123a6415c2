/*
 * error.c — sm_error() and its sink (error.h).
 *
 * Owns formatting one line of error and handing it to the sink.  It must
 * not exit or know commands.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "input.h"

static sm_error_fn *sink;
static void *sink_ctx;

void sm_error_sink(sm_error_fn *fn, void *ctx)
{
	sink = fn;
	sink_ctx = ctx;
}

int sm_error(const char *fmt, ...)
{
	va_list ap;
	char small[1024], *msg = small;

	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(small) && (msg = malloc((size_t)n + 1))) {
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	if (!msg)
		msg = small;
	sm_printable(msg);
	if (sink)
		sink(msg, sink_ctx);
	else
		fprintf(stderr, "selfmon: %s\n", msg);
	if (msg != small)
		free(msg);
	return 2;
}
