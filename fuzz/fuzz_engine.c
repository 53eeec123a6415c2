/*
 * fuzz_engine.c — libFuzzer target: arbitrary machine code run as a
 * user's reader in the Unicorn engine (x86-64, arm64, riscv64) against
 * the model, with the import stubs, so that containment is fuzzed: every
 * run must end in a verdict of one line, within the step budget, and
 * never in a sanitizer report or a hang (libFuzzer's -timeout).
 *
 * Input: a 6-byte header, then the code (at most FUZZ_CODE_MAX bytes),
 * loaded as one read-execute segment at SM_CODE_BASE as the ELF loader
 * would place a reader's .text:
 *   byte 0: arch = b % 3 (enum sm_arch), bundled scenario of that arch =
 *           (b / 3) % how many there are (sorted by name)
 *   byte 1: ABI = b % 4, injected action = (b / 4) % (SM_NACTIONS + 1):
 *           0 none, else kind - 1, as a schedule line could inject it
 *   bytes 2-3: the step it is injected before (little-endian)
 *   bytes 4-5: the entry point's offset into the code (little-endian,
 *           modulo its length)
 * FUZZ_ENGINE_VERBOSE=1 prints each run's verdict.
 * Seeds: tests/readers/ linked at the code base, one per function
 * (engine_seeds.sh); regressions: fuzz/regress/engine.
 *
 * One engine per input: the engine copies the code into the emulator
 * when it opens (and Unicorn caches its translations), so a session
 * cannot take new code; uc_open is most of an input's cost.
 */
#include <inttypes.h>
#include <stdio.h>

#include "bundled.h"
#include "elf_load.h"
#include "explore.h"
#include "fuzz.h"

#define FUZZ_HEADER 6
#define FUZZ_CODE_MAX 4096
#define FUZZ_MAX_SCN 32

static struct sm_scenario scns[SM_NARCH][FUZZ_MAX_SCN];
static unsigned nscn[SM_NARCH];

/* The bundled scenarios, loaded once, by arch. */
static void load_scenarios(void)
{
	static bool done;
	char **names, err[512];

	if (done)
		return;
	done = true;
	int n = sm_bundled_names(&names);
	for (int i = 0; i < n; i++) {
		struct sm_scenario *s = malloc(sizeof(*s));
		if (s && sm_scenario_open(names[i], s, err, sizeof(err)) == 0 &&
		    (unsigned)s->cfg.arch < SM_NARCH &&
		    nscn[s->cfg.arch] < FUZZ_MAX_SCN)
			scns[s->cfg.arch][nscn[s->cfg.arch]++] = *s;
		free(s);
	}
	if (n > 0)
		sm_names_free(names, n);
	for (int a = 0; a < SM_NARCH; a++)
		if (!nscn[a]) { /* the target would fuzz nothing there */
			fprintf(stderr, "fuzz_engine: no bundled %s scenario in %s\n",
			        sm_arch_name((enum sm_arch)a), sm_traces_dir());
			abort();
		}
}

/* Unicorn 2.0.1 aborts the process ("tcg fatal error", tcg.c:3073) when
 * it translates x86 FF /3 or FF /5 with a register operand (lcall/ljmp
 * through a register: #UD on a CPU), unicorn-engine/unicorn#1716; found
 * by this target, reproducer fuzz/known/engine/x86_ljmp_reg.  selfmon
 * contains it as a process (engine_unicorn.c: one line, exit 2), but it
 * still ends this one: skipped, coarsely (the byte pair anywhere), so
 * that fuzzing goes on past it. */
static bool unicorn_aborts(enum sm_arch arch, const uint8_t *code, size_t n)
{
	if (arch != SM_X86_64)
		return false;
	for (size_t i = 0; i + 1 < n; i++)
		if (code[i] == 0xff && (code[i + 1] & 0xc0) == 0xc0 &&
		    ((code[i + 1] >> 3 & 7) == 3 || (code[i + 1] >> 3 & 7) == 5))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "";

	if (size <= FUZZ_HEADER)
		return 0;
	load_scenarios();
	enum sm_arch arch = (enum sm_arch)(data[0] % SM_NARCH);
	const struct sm_scenario *scn = &scns[arch][data[0] / SM_NARCH %
	                                            nscn[arch]];
	enum sm_abi abi = (enum sm_abi)(data[1] % SM_NABI);
	unsigned act = data[1] / SM_NABI % (SM_NACTIONS + 1);
	struct sm_schedule sch = { 0 };
	if (act) {
		sch.n = 1;
		sch.item[0].step = data[2] | (uint64_t)data[3] << 8;
		sch.item[0].kind = (enum sm_action_kind)(act - 1);
	}
	size_t len = size - FUZZ_HEADER;
	if (len > FUZZ_CODE_MAX)
		len = FUZZ_CODE_MAX;
	uint64_t entry = (data[4] | (uint64_t)data[5] << 8) % len;
	if (unicorn_aborts(arch, data + FUZZ_HEADER, len))
		return 0;

	/* the image as elf_load.c would build it from a .text alone */
	struct sm_image img = { .arch = arch, .base = SM_CODE_BASE,
	                        .size = (len + 4095) & ~(uint64_t)4095,
	                        .nseg = 1, .entry = SM_CODE_BASE + entry };
	if (!(img.mem = calloc(1, img.size)))
		return 0;
	memcpy(img.mem, data + FUZZ_HEADER, len);
	img.seg[0] = (struct sm_segment){ 0, img.size, SM_PROT_R | SM_PROT_X };
	const struct sm_reader r = {
		.name = "fuzz", .what = "fuzzed machine code", .abi = abi,
		.symbol = "fuzz", .arches = 1u << arch, .image = &img,
		.sched_name = "fuzz#fuzz#raw",
	};

	struct sm_session *s = sm_session_new();
	if (!s || sm_session_init(s, scn, &r, SM_ENGINE_UNICORN, err,
	                          sizeof(err)) < 0) {
		/* selfmon's own error, one line: the engine could not open */
		if (strchr(err, '\n'))
			abort();
		sm_session_free(s);
		sm_image_free(&img);
		return 0;
	}
	sm_run_schedule(s, &sch);
	const struct sm_result *res = &s->res;
	if ((unsigned)res->verdict >= SM_NVERDICTS)
		abort(); /* a verdict, of the enum */
	if (!memchr(res->detail, '\0', sizeof(res->detail)) ||
	    strchr(res->detail, '\n'))
		abort(); /* its detail one line */
	if (res->steps > SM_BUDGET)
		abort(); /* within the budget */
	if (getenv("FUZZ_ENGINE_VERBOSE")) /* for triage */
		fprintf(stderr, "fuzz_engine: %s %s %s entry +%" PRIu64 ": %s "
		        "after %" PRIu64 " steps: %s\n", sm_arch_name(arch),
		        scn->name, sm_abi_name(abi), entry,
		        sm_verdict_name(res->verdict), res->steps, res->detail);
	sm_session_free(s);
	sm_image_free(&img);
	return 0;
}
