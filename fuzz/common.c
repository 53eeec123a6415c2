/*
 * common.c — what every fuzz target shares: the library's one-line errors
 * (util/error.h) go to a silent sink, so a run prints only what libFuzzer
 * says.
 */
#include "error.h"
#include "fuzz.h"

static void silent(const char *msg, void *ctx)
{
	(void)msg, (void)ctx;
}

__attribute__((constructor)) static void quiet_errors(void)
{
	sm_error_sink(silent, NULL);
}
