/*
 * test_isb.c — the arm64 ISB hazard (sim/engine/uc_arm64.c, "The stale
 * selection"): a read of PMXEVCNTR_EL0 that no isb or exception separates
 * from the msr of PMSELR_EL0 before it is a choice of the CPU, which the
 * explorer takes both ways.
 *
 * First on hand-assembled arm64 code run in the Unicorn engine (no cross
 * compiler needed): which reads are choice points, what each outcome
 * reads (checked against the same code reading PMEVCNTR<n>_EL0 directly
 * at the same instant), what synchronizes (isb, svc).  Then on the
 * corpus (when arm64 reader code is built): the mutant
 * arm64_pmselr_no_isb is caught with the missing isb named, its
 * counterexample line replays it, pruning changes nothing; the reference
 * reader, which reads every counter through its own register
 * (prims.h rdpmc(): PMEVCNTR0..30_EL0, PMCCNTR_EL0) and never selects,
 * has no choice point and passes; arm64_pmselr_unlocked, whose select has
 * its isb (prims.h pmselr()), has none either.  Last through the
 * `selfmon` binary: check's table, JSON and trace, and replay.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "cli.h"
#include "elf_load.h"
#include "explore.h"
#include "json_read.h"
#include "replay.h"

/* An event on counter 1, another counting three times as fast on
 * counter 0: the two selections read different values. */
static const char scn_text[] =
	"arch arm64\n"
	"pmu gp=6 user_access=1\n"
	"clock hz=1000000000\n"
	"event l1d_refill type=other counter=1\n"
	"event inst_spec type=other counter=0 rate=3\n"
	"check at=2000\n"
	"end 3000\n";

/* A64 encodings (Arm ARM), x0 the raw ABI's return value. */
#define MOV_X1(imm) (0xd2800001u | (uint32_t)(imm) << 5) /* movz x1, #imm */
#define MOV_X8_0 0xd2800008u             /* movz x8, #0 (no such syscall) */
#define MSR_PMSELR_X1 0xd51b9ca1u        /* msr pmselr_el0, x1 */
#define MRS_X0_PMXEVCNTR 0xd53b9d40u     /* mrs x0, pmxevcntr_el0 */
#define MRS_X2_PMXEVCNTR 0xd53b9d42u     /* mrs x2, pmxevcntr_el0 */
#define MRS_X0_PMEVCNTR(n) (0xd53be800u | (uint32_t)(n) << 5)
#define ISB 0xd5033fdfu
#define SVC_0 0xd4000001u
#define RET 0xd65f03c0u

static struct sm_scenario scn;
static uint8_t code[4096] __attribute__((aligned(4096)));
static struct sm_image img;
static struct sm_reader rd;

static int setup(void **state)
{
	char err[256];
	(void)state;
	if (sm_scenario_parse("isb", scn_text, &scn, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	return 0;
}

/* One run of the words as a raw-ABI reader, under sch (NULL: none). */
static struct sm_session *run_words(const uint32_t *w, unsigned n,
                                    const struct sm_schedule *sch)
{
	static const struct sm_schedule none;
	char err[256];

	memset(code, 0, sizeof(code));
	memcpy(code, w, n * sizeof(*w));
	img = (struct sm_image){
		.arch = SM_ARM64, .mem = code, .size = sizeof(code),
		.seg = { { 0, sizeof(code), SM_PROT_R | SM_PROT_X } }, .nseg = 1,
		.entry = SM_CODE_BASE,
	};
	rd = (struct sm_reader){ .name = "isb_test", .abi = SM_ABI_RAW,
	                         .image = &img, .arches = 1u << SM_ARM64 };
	struct sm_session *s = sm_replay(&scn, &rd, SM_ENGINE_UNICORN,
	                                 sch ? sch : &none, err, sizeof(err));
	if (!s)
		fail_msg("%s", err);
	return s;
}

/* The steps the run marked as the CPU's choice, into at[]: how many. */
static unsigned choices(const struct sm_session *s, uint64_t *at)
{
	unsigned k = 0;

	for (unsigned i = 0; i < s->run.npoints; i++)
		if (s->stale[i])
			at[k++] = s->points[i];
	return k;
}

/* The value the run returned. */
static uint64_t value_of(const uint32_t *w, unsigned n,
                         const struct sm_schedule *sch, unsigned *nchoice,
                         uint64_t *at, struct sm_missing_isb *isb)
{
	struct sm_session *s = run_words(w, n, sch);
	uint64_t v = s->res.value[0];

	*nchoice = choices(s, at);
	if (isb)
		*isb = s->res.isb;
	sm_session_free(s);
	return v;
}

/* msr then mrs, no isb: the read (step 2) is a choice; its outcomes are
 * counter 1 (the new selection) and counter 0 (the one at entry), each
 * as reading that counter's own register at the same step shows. */
static void test_choice(void **state)
{
	const uint32_t hazard[] = { MOV_X1(1), MSR_PMSELR_X1, MRS_X0_PMXEVCNTR,
	                            RET };
	const uint32_t direct1[] = { MOV_X1(1), MSR_PMSELR_X1,
	                             MRS_X0_PMEVCNTR(1), RET };
	const uint32_t direct0[] = { MOV_X1(1), MSR_PMSELR_X1,
	                             MRS_X0_PMEVCNTR(0), RET };
	struct sm_schedule stale = { .nstale = 1, .stale = { 2 } };
	struct sm_missing_isb isb;
	uint64_t at[8];
	unsigned n;
	(void)state;

	uint64_t c1 = value_of(direct1, 4, NULL, &n, at, NULL);
	assert_int_equal(n, 0);
	uint64_t c0 = value_of(direct0, 4, NULL, &n, at, NULL);
	assert_int_equal(n, 0);
	assert_true(c0 != c1);

	assert_int_equal(value_of(hazard, 4, NULL, &n, at, &isb), c1);
	assert_int_equal(n, 1);
	assert_int_equal(at[0], 2);
	assert_false(isb.taken);

	assert_int_equal(value_of(hazard, 4, &stale, &n, at, &isb), c0);
	assert_int_equal(n, 0); /* the choice was taken, not offered */
	assert_true(isb.taken);
	assert_int_equal(isb.selected, 1);
	assert_int_equal(isb.read, 0);
	assert_int_equal(isb.msr_pc, SM_CODE_BASE + 4);
	assert_int_equal(isb.mrs_pc, SM_CODE_BASE + 8);

	/* a stale_select naming a step that is no such read changes nothing */
	stale.stale[0] = 1;
	assert_int_equal(value_of(hazard, 4, &stale, &n, at, &isb), c1);
	assert_false(isb.taken);
}

/* What leaves no choice: an isb or an exception (svc) between the two,
 * or a write of the selection PMSELR_EL0 already had (0 at entry). */
static void test_synchronized(void **state)
{
	const uint32_t with_isb[] = { MOV_X1(1), MSR_PMSELR_X1, ISB,
	                              MRS_X0_PMXEVCNTR, RET };
	const uint32_t with_svc[] = { MOV_X1(1), MOV_X8_0, MSR_PMSELR_X1, SVC_0,
	                              MRS_X0_PMXEVCNTR, RET };
	const uint32_t same[] = { MOV_X1(0), MSR_PMSELR_X1, MRS_X0_PMXEVCNTR,
	                          RET };
	const uint32_t direct1[] = { MOV_X1(1), MSR_PMSELR_X1, ISB,
	                             MRS_X0_PMEVCNTR(1), RET };
	struct sm_schedule stale = { .nstale = 1, .stale = { 3 } };
	struct sm_missing_isb isb;
	uint64_t at[8];
	unsigned n;
	(void)state;

	uint64_t c1 = value_of(direct1, 5, NULL, &n, at, NULL);
	assert_int_equal(value_of(with_isb, 5, NULL, &n, at, NULL), c1);
	assert_int_equal(n, 0);
	/* and the schedule cannot make it stale */
	assert_int_equal(value_of(with_isb, 5, &stale, &n, at, &isb), c1);
	assert_false(isb.taken);
	value_of(with_svc, 6, NULL, &n, at, NULL);
	assert_int_equal(n, 0);
	value_of(same, 4, NULL, &n, at, NULL);
	assert_int_equal(n, 0);
}

/* A read that took the new selection saw the write land: the next read
 * has no choice.  One that took the old one did not: the next has. */
static void test_landed(void **state)
{
	const uint32_t twice[] = { MOV_X1(1), MSR_PMSELR_X1, MRS_X0_PMXEVCNTR,
	                           MRS_X2_PMXEVCNTR, RET };
	struct sm_schedule stale = { .nstale = 1, .stale = { 2 } };
	uint64_t at[8];
	unsigned n;
	(void)state;

	value_of(twice, 5, NULL, &n, at, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(at[0], 2);
	value_of(twice, 5, &stale, &n, at, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(at[0], 3);
}

/* ---- the corpus ------------------------------------------------------ */

static bool arm64_code(void)
{
	if (sm_blob_for(SM_ARM64))
		return true;
	fprintf(stderr, "no arm64 reader code built: skipped\n");
	return false;
}

static void load(const char *name, struct sm_scenario *out)
{
	char path[512], err[256];

	snprintf(path, sizeof(path), "%s/traces/%s.scn", SELFMON_SRC, name);
	if (sm_scenario_load(path, out, err, sizeof(err)) < 0)
		fail_msg("%s", err);
}

static struct sm_session *session(const struct sm_scenario *sc,
                                  const char *reader)
{
	const struct sm_reader *r = sm_reader_find(reader);
	struct sm_session *s = sm_session_new();
	char err[256];

	assert_non_null(r);
	assert_non_null(s);
	if (sm_session_init(s, sc, r, SM_ENGINE_UNICORN, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	return s;
}

/* The mutant in arm64_swapped (its event on counter 12): caught at bound
 * 1 by the stale read alone, the missing isb named; the line replays it;
 * without the stale read the same run passes; pruning changes nothing. */
static void test_mutant(void **state)
{
	struct sm_explore_opts o = { .bound = 2 }, np = { .bound = 2,
	                                                 .no_prune = true };
	struct sm_scenario sc;
	struct sm_cell cell, cell2;
	struct sm_schedule_line l;
	char err[256];
	(void)state;

	if (!arm64_code())
		return;
	load("arm64_swapped", &sc);
	struct sm_session *s = session(&sc, "arm64_pmselr_no_isb");
	sm_explore(s, &o, &cell);
	assert_int_equal(cell.verdict, SM_V_WRONG_VALUE);
	assert_int_equal(cell.least_bound, 1);
	assert_int_equal(cell.min.n, 0);
	assert_int_equal(cell.min.nstale, 1);
	assert_true(cell.res.isb.taken);
	assert_int_equal(cell.res.isb.selected, 12);
	assert_int_equal(cell.res.isb.read, 0);
	assert_non_null(strstr(cell.res.detail, "missing isb: the mrs of "
	                       "PMXEVCNTR_EL0"));
	sm_explore(s, &np, &cell2);
	assert_int_equal(cell2.verdict, cell.verdict);
	assert_int_equal(cell2.runs, cell.runs);
	assert_int_equal(cell2.pruned, 0);
	assert_string_equal(cell2.res.detail, cell.res.detail);

	char *line = sm_schedule_text(SM_ARM64, SM_ENGINE_UNICORN,
	                              "arm64_pmselr_no_isb", "arm64_swapped",
	                              &cell.min);
	assert_non_null(line);
	assert_non_null(strstr(line, ":-;stale_select="));
	assert_int_equal(sm_schedule_parse(line, &l, err, sizeof(err)), 0);
	sm_run_schedule(s, &l.sched);
	assert_int_equal(s->res.verdict, SM_V_WRONG_VALUE);
	assert_string_equal(s->res.detail, cell.res.detail);
	l.sched.nstale = 0;
	sm_run_schedule(s, &l.sched);
	assert_int_equal(s->res.verdict, SM_V_PASS);
	assert_false(s->res.isb.taken);
	sm_schedule_line_free(&l);
	free(line);
	sm_session_free(s);
}

/* Every arm64 scenario's run with no action: the reference reader and
 * arm64_pmselr_unlocked read counters and meet no choice; the mutant
 * meets one.  And the reference passes with the choice in the search. */
static void test_reference(void **state)
{
	static const char *const scns[] = {
		"arm64_bias", "arm64_counters", "arm64_remote", "arm64_swapped",
		"arm64_timer_wrap",
	};
	struct sm_explore_opts o = { .bound = 2 };
	struct sm_cell cell;
	uint64_t at[SM_MAX_POINTS];
	(void)state;

	if (!arm64_code())
		return;
	for (size_t i = 0; i < sizeof(scns) / sizeof(scns[0]); i++) {
		struct sm_scenario sc;
		load(scns[i], &sc);
		static const char *const rs[] = { "reference",
		                                  "arm64_pmselr_unlocked",
		                                  "arm64_pmselr_no_isb" };
		for (int k = 0; k < 3; k++) {
			struct sm_session *s = session(&sc, rs[k]);
			sm_run_schedule(s, &(struct sm_schedule){ 0 });
			assert_true(s->run.counter_last);
			unsigned n = choices(s, at);
			if (k < 2 && n)
				fail_msg("%s in %s: a choice at step %" PRIu64, rs[k],
				         scns[i], at[0]);
			if (k == 2 && !n)
				fail_msg("%s in %s: no choice", rs[k], scns[i]);
			if (k == 0 && strcmp(scns[i], "arm64_remote")) {
				sm_explore(s, &o, &cell);
				assert_int_equal(cell.verdict, SM_V_PASS);
			}
			sm_session_free(s);
		}
	}
}

/* ---- through the binary ---------------------------------------------- */

static const struct jr_value *cell_of(const struct jr_value *cells,
                                      const char *reader)
{
	for (size_t i = 0; i < cells->n; i++)
		if (!strcmp(jr_str(jr_get(&cells->items[i], "reader")), reader))
			return &cells->items[i];
	fail_msg("no cell of %s", reader);
	return NULL;
}

static void test_cli(void **state)
{
	struct jr_value doc;
	char err[256], cmd[1024], dir[] = "/tmp/selfmon-isb-XXXXXX";
	uint64_t v;
	(void)state;

	if (!arch_built("arm64"))
		return;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "check arm64_pmselr_no_isb reference --arch "
	         "arm64 --scenario arm64_swapped --json --traces %s", dir);
	run(cmd);
	assert_int_equal(r.status, 0); /* each verdict as the corpus declares */
	if (jr_parse(r.out, strlen(r.out), &doc, err, sizeof(err)) < 0)
		fail_msg("bad JSON: %s", err);
	const struct jr_value *cells = jr_get(&doc, "cells");
	assert_non_null(cells);
	const struct jr_value *m = cell_of(cells, "arm64_pmselr_no_isb");
	assert_string_equal(jr_str(jr_get(m, "verdict")), "WRONG_VALUE");
	assert_true(jr_get(m, "as_expected")->b);
	assert_non_null(strstr(jr_str(jr_get(m, "detail")), "missing isb"));
	const struct jr_value *isb = jr_get(m, "missing_isb");
	assert_non_null(isb);
	assert_true(jr_u64(jr_get(isb, "selected"), &v) && v == 12);
	assert_true(jr_u64(jr_get(isb, "read"), &v) && v == 0);
	const char *line = jr_str(jr_get(m, "minimised"));
	assert_non_null(strstr(line, ";stale_select="));
	const struct jr_value *ref = cell_of(cells, "reference");
	assert_string_equal(jr_str(jr_get(ref, "verdict")), "PASS");
	assert_null(jr_get(ref, "missing_isb"));

	snprintf(cmd, sizeof(cmd), "replay '%s'", line);
	jr_free(&doc); /* line points into doc: copied into cmd first */
	run(cmd);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "WRONG_VALUE"));
	assert_non_null(strstr(r.out, "missing isb"));
	snprintf(cmd, sizeof(cmd), "replay %s/arm64_pmselr_no_isb-arm64_swapped-"
	         "unicorn.trace", dir);
	run(cmd);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "missing isb"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* --without stale_select: the CPU's stale read is never chosen, so the
 * mutant, whose only fault is its missing isb, passes arm64_swapped;
 * the cell where a choice point's stale read was left out is held to no
 * expectation, and the filter is in the header.  --actions without it
 * leaves it out as well, --actions stale_select on x86_64 is refused,
 * and list names it. */
static void test_without_stale(void **state)
{
	struct jr_value doc;
	char err[256];
	(void)state;

	if (!arch_built("arm64"))
		return;
	run("check arm64_pmselr_no_isb reference --arch arm64 --scenario "
	    "arm64_swapped --without stale_select --json --no-traces");
	assert_int_equal(r.status, 0);
	if (jr_parse(r.out, strlen(r.out), &doc, err, sizeof(err)) < 0)
		fail_msg("bad JSON: %s", err);
	const struct jr_value *f = jr_get(&doc, "filter");
	assert_non_null(f);
	assert_string_equal(jr_str(jr_get(f, "without")), "stale_select");
	const struct jr_value *cells = jr_get(&doc, "cells");
	const struct jr_value *m = cell_of(cells, "arm64_pmselr_no_isb");
	assert_null(jr_get(m, "missing_isb"));
	assert_string_equal(jr_str(jr_get(m, "verdict")), "PASS");
	assert_string_equal(jr_str(jr_get(m, "expected")), "-");
	/* the reference has no choice point: still judged, and PASS */
	const struct jr_value *ref = cell_of(cells, "reference");
	assert_string_equal(jr_str(jr_get(ref, "verdict")), "PASS");
	assert_string_equal(jr_str(jr_get(ref, "expected")), "PASS");
	jr_free(&doc);

	/* --actions without it: no stale read either */
	run("check arm64_pmselr_no_isb --arch arm64 --scenario arm64_swapped "
	    "--actions overflow --json --no-traces");
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, ";stale_select="));
	assert_null(strstr(r.out, "\"missing_isb\""));
	/* ... and with it, as by default */
	run("check arm64_pmselr_no_isb --arch arm64 --scenario arm64_swapped "
	    "--actions overflow,stale_select --json --no-traces");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, ";stale_select="));
	expect_usage_error("check --arch x86_64 --actions stale_select",
	                   "--actions stale_select does not apply to x86_64");
	run("list --names actions");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\nstale_select\n"));
}

/* merge reads the missing isb back: two shards make the whole sweep's
 * JSON, byte for byte; a shard whose missing_isb check could not have
 * written is refused, one line, exit 2. */
static void test_merge(void **state)
{
	char cmd[2048], dir[] = "/tmp/selfmon-isbm-XXXXXX";
	static char whole[1 << 20];
	(void)state;

	if (!arch_built("arm64"))
		return;
	assert_non_null(mkdtemp(dir));
	const char *base = "check arm64_pmselr_no_isb --arch arm64 --json "
	                   "--no-traces";
	run(base);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"missing_isb\":{"));
	snprintf(whole, sizeof(whole), "%s", r.out);
	for (int i = 0; i < 2; i++) {
		char path[128];
		snprintf(cmd, sizeof(cmd), "%s --shard %d/2", base, i);
		run(cmd);
		assert_int_equal(r.status, 0);
		snprintf(path, sizeof(path), "%s/s%d.json", dir, i);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(r.out, f);
		assert_int_equal(fclose(f), 0);
	}
	snprintf(cmd, sizeof(cmd), "merge %s/s0.json %s/s1.json --json", dir,
	         dir);
	run(cmd);
	assert_int_equal(r.status, 0);
	/* the same cells and counts (the header names the shard) */
	const char *a = strstr(whole, "\"cells\":"), *b = strstr(r.out,
	                                                         "\"cells\":");
	assert_non_null(a);
	assert_non_null(b);
	assert_string_equal(a, b);
	snprintf(cmd, sizeof(cmd), "sed 's/\"selected\":\\([0-9]*\\)/"
	         "\"selected\":40/' %s/s0.json > %s/bad.json", dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "merge %s/bad.json %s/s1.json --json", dir,
	         dir);
	expect_usage_error(cmd, "a bad \"missing_isb\"");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choice),
		cmocka_unit_test(test_synchronized),
		cmocka_unit_test(test_landed),
		cmocka_unit_test(test_mutant),
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_without_stale),
		cmocka_unit_test(test_merge),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
