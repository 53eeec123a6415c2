/*
 * hw_report.c — the report of a hw run (hw_report.h), for `selfmon hw`
 * and `selfmon vm`.
 *
 * Owns the words and the JSON of the report.  It must not open events or
 * run readers: the run is already data.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hw_report.h"
#include "json.h"

static void page_report(FILE *f, const struct hw_run_event *e)
{
	const struct perf_event_mmap_page *p = &e->page;

	if (!e->have_page) {
		fprintf(f, "  %-16s page lock never settled\n", e->name);
		return;
	}
	fprintf(f, "  %-16s lock %u index %u offset %" PRId64 " enabled %" PRIu64
	        " running %" PRIu64 "\n", e->name, p->lock, p->index,
	        (int64_t)p->offset, (uint64_t)p->time_enabled,
	        (uint64_t)p->time_running);
	fprintf(f, "  %-16s caps: bit0_is_deprecated %u user_rdpmc %u user_time "
	        "%u user_time_zero %u user_time_short %u; pmc_width %u\n", "",
	        (unsigned)p->cap_bit0_is_deprecated, (unsigned)p->cap_user_rdpmc,
	        (unsigned)p->cap_user_time, (unsigned)p->cap_user_time_zero,
	        (unsigned)p->cap_user_time_short, p->pmc_width);
	fprintf(f, "  %-16s time_mult %u time_shift %u time_offset %" PRId64
	        " time_zero %" PRIu64 " time_cycles %" PRIu64 " time_mask 0x%"
	        PRIx64 "\n", "", p->time_mult, p->time_shift,
	        (int64_t)p->time_offset, (uint64_t)p->time_zero,
	        (uint64_t)p->time_cycles, (uint64_t)p->time_mask);
}

static void machine_report(FILE *f, const char *title,
                           const struct hw_run *run)
{
	const struct hw_machine *m = &run->m;

	fprintf(f, "%s: %s, %d CPUs, perf_event_paranoid %d, %s\n", title,
	        m->arch, m->ncpus, m->paranoid, m->user_access);
	fprintf(f, "%s\n", m->pmu ? "hardware PMU: yes" : m->no_pmu);
	fprintf(f, "\npages:\n");
	for (unsigned i = 0; i < run->nev; i++)
		if (!run->ev[i].err)
			page_report(f, &run->ev[i]);
		else
			fprintf(f, "  %-16s not opened: %s\n", run->ev[i].name,
			        strerror(-run->ev[i].err));
}

static void json_head(struct json *j, const struct hw_machine *m)
{
	json_begin(j, NULL, '{');
	json_str(j, "arch", m->arch);
	json_bool(j, "pmu", m->pmu);
	json_str(j, "pmu_detail", m->pmu ? "" : m->no_pmu);
	json_u64(j, "perf_event_paranoid", (uint64_t)m->paranoid);
	json_str(j, "user_access", m->user_access);
	json_begin(j, "checks", '[');
}

static void json_tally(struct json *j, const struct hw_run_check *c,
                       const struct hw_run_event *e)
{
	const struct hw_tally *t = &c->t;

	json_begin(j, NULL, '{');
	json_str(j, "reader", c->reader->name);
	json_str(j, "event", e->name);
	json_u64(j, "checks", t->runs);
	json_u64(j, "wrong", t->fails);
	json_str(j, "first", t->first);
	json_bool(j, "hung", t->hung);
	json_u64(j, "cpu_us", t->cpu_ns / 1000);
	json_u64(j, "read_ps", (uint64_t)(t->read_ns * 1000));
	json_u64(j, "syscall_ps", (uint64_t)(t->syscall_ns * 1000));
	json_end(j, '{');
}

/* The columns' widths: the longest reader name (a user's PATH:SYMBOL
 * can be long) and event name, at least the built-in ones' 20 and 16. */
static void widths(const struct hw_run *run, int *rw, int *ew)
{
	size_t r = 20, e = 16;

	for (unsigned i = 0; i < run->nchecks; i++) {
		size_t n = strlen(run->checks[i].reader->name);
		r = n > r ? n : r;
	}
	for (unsigned i = 0; i < run->nev; i++) {
		size_t n = strlen(run->ev[i].name);
		e = n > e ? n : e;
	}
	*rw = r > 1024 ? 1024 : (int)r;
	*ew = (int)e;
}

/* Every check, one line (and JSON object) each. */
static void check_all(FILE *f, struct json *j, bool json, bool named,
                      const struct hw_run *run, struct hw_outcome *out)
{
	int rw, ew;

	widths(run, &rw, &ew);
	fprintf(f, "%-*s %-*s %8s %8s %10s %10s %6s  %s\n", rw, "reader", ew,
	        "event", "checks", "wrong", "ns/read", "ns/read(2)", "ratio",
	        "first");
	for (unsigned i = 0; i < run->nchecks; i++) {
		const struct hw_run_check *c = &run->checks[i];
		const struct hw_tally *t = &c->t;
		const struct hw_run_event *e = &run->ev[c->event];
		out->hung += t->hung;
		bool counts = named || !strcmp(c->reader->name, "reference");
		out->bad += counts && t->fails;
		fprintf(f, "%-*s %-*s %8u %8u %10.1f %10.1f %6.2f  %s%s\n", rw,
		        c->reader->name, ew, e->name, t->runs, t->fails, t->read_ns,
		        t->syscall_ns, t->syscall_ns > 0 ? t->read_ns / t->syscall_ns
		                                         : 0, t->first,
		        t->fails && !counts ? " (a corpus variant)" : "");
		if (json)
			json_tally(j, c, e);
	}
}

void hw_report(FILE *f, bool json, const char *title, bool named,
               const struct hw_run *run, struct hw_outcome *out)
{
	struct json j;
	uint64_t budget = hw_budget_ms(run->iterations, run->slow);

	out->bad = out->hung = 0;
	machine_report(f, title, run);
	json_init(&j, stdout);
	if (json)
		json_head(&j, &run->m);
	fprintf(f, "\nchecks (%u reads each, then after IOC_RESET, "
	        "disable/enable, migration, and IOC_PERIOD on a sampling event; "
	        "each reader at most %u ms of CPU time a read and %" PRIu64
	        " ms an event):\n", run->iterations, HW_CALL_CPU_MS * run->slow,
	        budget);
	check_all(f, &j, json, named, run, out);
	if (json) {
		json_end(&j, '[');
		json_u64(&j, "disagreements", out->bad);
		json_u64(&j, "hanging", out->hung);
		json_u64(&j, "budget_ms", budget);
		json_end(&j, '{');
		putchar('\n');
	}
	if (out->hung)
		fprintf(f, "\n%u checks stopped: the reader hangs (more than %u ms "
		        "of CPU time for a read or %" PRIu64 " ms for the event)\n",
		        out->hung, HW_CALL_CPU_MS * run->slow, budget);
	fprintf(f, "\n%s\n", out->bad ? "a reader disagreed with the kernel"
	                              : "every check that could run passed");
}
