/*
 * fuzz_scenario.c — libFuzzer target: the scenario parser, and the model
 * run of every scenario it accepts (bounded: at most FUZZ_EVENTS model
 * events, so one input stays fast), with every event's truth and read(2)
 * at the end.  Seeds: the bundled scenarios (traces/, .scn); regressions:
 * fuzz/regress/scenario.
 */
#include "fuzz.h"
#include "run.h"

#define FUZZ_EVENTS 5000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sm_scenario s;
	struct sm_model *m = NULL;
	char err[512], *text = fuzz_text(data, size);

	if (!text)
		return 0;
	if (sm_scenario_parse("fuzz.scn", text, &s, err, sizeof(err)) == 0 &&
	    (m = sm_model_new(&s.cfg, NULL, NULL, err, sizeof(err)))) {
		sm_model_set_cap(m, FUZZ_EVENTS);
		uint64_t upto = s.end > s.check_at ? s.end : s.check_at;
		sm_scenario_run(m, &s, upto, err, sizeof(err));
		for (unsigned i = 0; i < s.cfg.nevents; i++) {
			struct sm_truth t;
			uint64_t v[3];
			sm_model_truth(m, (int)i, &t);
			sm_model_read(m, (int)i, v, sizeof(v));
			if (t.running > t.enabled)
				abort(); /* the model's own invariant */
		}
	}
	sm_model_free(m);
	free(text);
	return 0;
}
