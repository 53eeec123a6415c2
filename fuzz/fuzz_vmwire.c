/*
 * fuzz_vmwire.c — libFuzzer target: a `selfmon vm` guest's console (the
 * guest is untrusted) through the strict parser of its @selfmon lines
 * (sim/hw/hw_run.c), then the report of what it accepted, as `selfmon vm`
 * prints it.  Seeds: fuzz/seeds/vmwire (a real arm64 guest's console).
 */
#include <stdio.h>

#include "fuzz.h"
#include "hw_report.h"
#include "hw_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], *text;
	struct hw_run run;
	struct hw_outcome out;

	if (!(text = fuzz_text(data, size)))
		return 0;
	if (hw_run_parse("fuzz", text, NULL, 0, &run, err, sizeof(err)) == 0) {
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			hw_report(f, false, "fuzz", true, &run, &out);
			fclose(f);
		}
		hw_run_free(&run);
	}
	free(text);
	return 0;
}
