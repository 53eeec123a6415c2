/*
 * cmd_explain_bug.c — `selfmon explain-bug NAME`: for a reader of the
 * corpus, its minimal failing schedule with the --explain listing, and a
 * paragraph on the fault and the fix.
 *
 * Owns: the fault/fix texts of the corpus (one entry per variant) and the
 * search for the shortest counterexample among the bundled scenarios.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "explain.h"
#include "explore.h"

static const struct bug {
	const char *name, *fault, *fix;
} bugs[] = {
	{ "rfc2011_test", "adds the raw counter to offset without sign "
	  "extension, returns 0 when index is 0, and adds the time delta to "
	  "running even when the event is not on a counter.",
	  "sign-extend the counter from pmc_width, fall back to read(2) when "
	  "index is 0, and add the delta to running only when index != 0." },
	{ "rfc2011_mux", "no sign extension, (1 << time_shift) computed as an "
	  "int, and count / running with running possibly 0.",
	  "sign-extend from pmc_width, use 64-bit or 128-bit time arithmetic, "
	  "and scale only when running != 0." },
	{ "pinned_loop", "assumes the counter is always on the PMU: no odd-lock "
	  "check, no capability check, no sign extension.",
	  "check cap_user_rdpmc and index, sign-extend, retry while the lock "
	  "is odd or has moved." },
	{ "uapi_pre2022", "the header's loop before 2022: divides by running "
	  "without checking it and keeps the IOC_RESET quirk.",
	  "guard running != 0 and correct a count that comes out negative by "
	  "2^pmc_width." },
	{ "uapi_2022", "the 2022 header loop: right arithmetic, but after "
	  "PERF_EVENT_IOC_RESET the sign-extended count is 2^pmc_width low.",
	  "a count that comes out negative after sign extension was computed "
	  "from a zero-extended prev_count: add 2^pmc_width." },
	{ "manpage", "adds the raw rdpmc value (no sign extension) and divides "
	  "by running without a guard.",
	  "sign-extend from pmc_width and guard running != 0." },
	{ "libperf_sext", "extrapolates enabled/running only when they differ "
	  "on the page, so a pinned event's times are those of the last page "
	  "update; also keeps the IOC_RESET quirk.",
	  "always add the time delta when cap_user_time is set, and correct the "
	  "reset quirk." },
	{ "libperf_nosext", "the older libperf without sign extension: off by "
	  "2^pmc_width after every reload.", "sign-extend from pmc_width." },
	{ "jevents_mask48", "masks rdpmc to 48 bits and adds offset: no sign "
	  "extension, and index 0 returns offset without re-checking the lock.",
	  "sign-extend from pmc_width and keep every load inside the seqlock." },
	{ "papi_offset_mask", "adds offset and counter modulo 2^pmc_width: "
	  "wrong once the count reaches 2^pmc_width, and stale times when not "
	  "multiplexed.", "add in 64 bits after sign extension; always "
	  "extrapolate the times." },
	{ "no_recheck", "never re-reads the lock, so an update between its "
	  "loads (a migration, an overflow) goes unnoticed.",
	  "re-read the lock after the last load and retry if it moved." },
	{ "inverted_recheck", "retries while the lock is unchanged: without "
	  "kernel activity it never returns; with it, it returns a torn read.",
	  "retry while the lock HAS changed (or is odd)." },
	{ "no_barrier", "without compiler barriers and with plain loads the "
	  "compiler folds the two lock loads into one: the re-check is gone.",
	  "load each field once with READ_ONCE and put barriers (rmb on arm64 "
	  "and riscv64) between the lock and the fields." },
	{ "stale_delta", "takes the clock and the time delta on the first pass "
	  "only and reuses them after a retry.",
	  "read the clock and compute the delta inside every pass." },
	{ "shift_int", "computes the time with an int mask (1 << time_shift) "
	  "- 1; for every shift the kernel writes (<= 31) the mask happens to "
	  "be right, so no page exposes it.", "use unsigned 64-bit (or "
	  "mul_u64_u32_shr) arithmetic all the same." },
	{ "no_running_guard", "scales count * enabled / running without "
	  "checking running: an event that never ran divides by zero.",
	  "return the count unscaled (it is 0) when running is 0." },
	{ "rdpmc_index0", "calls rdpmc(index - 1) without checking index: with "
	  "index 0 that is counter 0xffffffff, a #GP (SIGSEGV).",
	  "read the counter only when cap_user_rdpmc and index != 0; else "
	  "read(2)." },
	{ "caps_outside_loop", "reads the capability bits once before the "
	  "seqlock: a page update in flight shows cap_user_time cleared and the "
	  "reader returns stale times.",
	  "load capabilities inside the seqlock pass with the other fields." },
	{ "no_sext", "adds the raw counter without sign extension: off by "
	  "2^pmc_width after every reload.", "sign-extend from pmc_width." },
	{ "no_zero_ext_fix", "always sign-extends: right after IOC_RESET the "
	  "kernel's prev_count is zero-extended and the count is 2^pmc_width "
	  "low.", "add 2^pmc_width to a count that comes out negative." },
	{ "no_time_mask", "ignores time_cycles/time_mask: across a timer wrap "
	  "(arm64, riscv64) the time jumps back by the timer's period.",
	  "cyc = time_cycles + ((cyc - time_cycles) & time_mask) when "
	  "cap_user_time_short." },
	{ "arm64_swapped_table", "its per-register counter table has the "
	  "entries for PMEVCNTR0 and PMEVCNTR1 swapped.",
	  "generate the table (or use one mrs per case of a switch) so entry n "
	  "reads PMEVCNTR<n>." },
	{ "arm64_pmselr_unlocked", "selects the counter (PMSELR_EL0) once, "
	  "outside the seqlock; when the event moves the read goes to the old "
	  "counter.", "select and read inside the same seqlock pass." },
};

static const struct bug *bug_of(const char *name)
{
	for (size_t i = 0; i < sizeof(bugs) / sizeof(bugs[0]); i++)
		if (!strcmp(bugs[i].name, name))
			return &bugs[i];
	return NULL;
}

static void paragraph(const char *label, const char *text)
{
	printf("%s: ", label);
	unsigned col = (unsigned)strlen(label) + 2;
	for (const char *w = text; *w;) {
		size_t n = strcspn(w, " ");
		if (col + n > 76) {
			printf("\n  ");
			col = 2;
		}
		printf("%.*s", (int)n, w);
		col += (unsigned)n;
		w += n;
		if (*w == ' ') {
			putchar(' ');
			col++;
			w++;
		}
	}
	putchar('\n');
}

struct best {
	char scenario[64];
	struct sm_scenario scn;
	struct sm_cell cell;
	bool found;
};

/* The bundled scenario with the shortest minimised counterexample. */
static void search(const struct sm_reader *r, enum sm_arch arch,
                   struct best *b)
{
	static struct sm_scenario scn;
	struct sm_explore_opts o = { .bound = 2 };
	DIR *d = opendir(sm_traces_dir());
	char path[1024], err[512];
	struct sm_cell cell;

	b->found = false;
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".scn"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", sm_traces_dir(), e->d_name);
		if (sm_scenario_load(path, &scn, err, sizeof(err)) < 0 ||
		    scn.cfg.arch != arch || scn.expect >= 0)
			continue; /* a kernel hazard explains no reader's bug */
		struct sm_session *s = sm_session_new();
		if (!s || sm_session_init(s, &scn, r, ENGINE_UNICORN, err,
		                          sizeof(err)) < 0) {
			sm_session_free(s);
			continue;
		}
		sm_explore(s, &o, &cell);
		sm_session_free(s);
		if (!sm_verdict_fails(cell.verdict) ||
		    (b->found && cell.min.n >= b->cell.min.n))
			continue;
		snprintf(b->scenario, sizeof(b->scenario), "%.*s", (int)(len - 4),
		         e->d_name);
		b->scn = scn;
		b->cell = cell;
		b->found = true;
	}
	if (d)
		closedir(d);
}

int cmd_explain_bug(int argc, char **argv)
{
	static struct best b;
	char line[1200], err[256];

	if (argc < 1)
		return usage_error("explain-bug: missing NAME, a corpus reader (see "
		                   "'selfmon explain-bug --help')");
	if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
		puts("usage: selfmon explain-bug NAME\n\nFor a reader of the corpus "
		     "(see 'selfmon list'): its shortest failing schedule\nover the "
		     "bundled scenarios, the step-by-step listing of it, and what\n"
		     "the fault is and how to fix it.");
		return 0;
	}
	if (argc > 1)
		return usage_error("explain-bug: unexpected argument '%s'", argv[1]);
	const struct sm_reader *r = sm_reader_find(argv[0]);
	const struct bug *bug = bug_of(argv[0]);
	if (!r)
		return usage_error("explain-bug: unknown reader '%s' (see 'selfmon "
		                   "list')", argv[0]);
	if (!bug)
		return usage_error("explain-bug: '%s' has no bug to explain (the "
		                   "reference reader passes every scenario)", argv[0]);
	static struct best cand;
	enum sm_arch arch = SM_NARCH;
	for (int a = 0; a < SM_NARCH; a++) {
		if (!sm_blob_for((enum sm_arch)a) || !sm_reader_on(r, (enum sm_arch)a))
			continue;
		if (arch == SM_NARCH)
			arch = (enum sm_arch)a;
		search(r, (enum sm_arch)a, &cand);
		if (cand.found && (!b.found || cand.cell.min.n < b.cell.min.n)) {
			b = cand;
			arch = (enum sm_arch)a;
		}
	}
	if (arch == SM_NARCH)
		return usage_error("explain-bug: no reader code for '%s' in this "
		                   "selfmon", r->name);
	printf("%s (%s ABI): %s\n\n", r->name, sm_abi_name(r->abi), r->what);
	paragraph("The fault", bug->fault);
	if (!b.found) {
		printf("\nNo bundled scenario makes it fail at bound 2.\n");
		paragraph("\nThe fix", bug->fix);
		return 0;
	}
	sm_schedule_format(line, sizeof(line), arch, ENGINE_UNICORN, r->name,
	                   b.scenario, &b.cell.min);
	printf("\nShortest counterexample (%s): %s\n  %s\n\n", sm_verdict_name(
	       b.cell.verdict), line, b.cell.res.detail);
	struct sm_session *s = sm_session_new();
	struct sm_explain x;
	if (!s || sm_session_init(s, &b.scn, r, ENGINE_UNICORN, err,
	                          sizeof(err)) < 0) {
		sm_session_free(s);
		return usage_error("explain-bug: %s", err);
	}
	sm_session_start(s);
	sm_explain_init(&x, stdout, s);
	x.max_steps = 400;
	s->explain = &x;
	sm_run_schedule(s, &b.cell.min);
	sm_explain_done(&x);
	printf("\n%s: %s\n\n", sm_verdict_name(s->res.verdict), s->res.detail);
	sm_session_free(s);
	paragraph("The fix", bug->fix);
	return 0;
}
