/*
 * fuzz_hwtrace.c — libFuzzer target: hardware traces (selfmon hw record's
 * format) through the whole comparison with the model, as `selfmon model
 * --compare` runs it, within the trace caps.  Seeds: the traces in
 * traces/hw.
 */
#include "fuzz.h"
#include "hw_compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[2048], *text;

	if (memchr(data, '\0', size)) /* the command refuses a NUL byte */
		return 0;
	if (!(text = fuzz_text(data, size)))
		return 0;
	hw_compare_text("fuzz.trace", text, 0, NULL, err, sizeof(err));
	free(text);
	return 0;
}
