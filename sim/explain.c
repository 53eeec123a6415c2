/*
 * explain.c — the --explain listing (see explain.h).
 */
#include <inttypes.h>
#include <string.h>

#include "explain.h"

void sm_explain_init(struct sm_explain *x, FILE *f, const struct sm_session *s)
{
	x->f = f;
	x->last = *sm_model_page(&s->model, 0);
}

void sm_explain_insn(struct sm_session *s, uint64_t addr, const uint8_t *b,
                     unsigned len)
{
	FILE *f = s->explain->f;

	fprintf(f, "%6" PRIu64 "  %08" PRIx64 "  ", s->step, addr);
	for (unsigned i = 0; i < 8; i++)
		fprintf(f, i < len ? "%02x" : "  ", i < len ? b[i] : 0);
	fputc('\n', f);
}

void sm_explain_native(struct sm_session *s, const char *what)
{
	fprintf(s->explain->f, "%6" PRIu64 "  %s\n", s->step, what);
}

void sm_explain_load(struct sm_session *s, unsigned off, unsigned size,
                     uint64_t v)
{
	const struct selfmon_page_field *f = selfmon_page_field_at(off);

	fprintf(s->explain->f, "          load  page.%s%s (%u bytes at +%u) = %"
	        PRIu64 " (0x%" PRIx64 ")\n", f ? f->name : "__reserved",
	        f && f->off != off ? "[part]" : "", size, off, v, v);
}

void sm_explain_trap(struct sm_session *s, const char *what, uint64_t arg,
                     uint64_t v)
{
	fprintf(s->explain->f, "          trap  %s(%" PRIu64 ") -> %" PRIu64
	        " (0x%" PRIx64 ")  [model cycle %" PRIu64 "]\n", what, arg, v, v,
	        s->model.now);
}

/* Page fields that differ from what was last shown. */
static void show_changes(struct sm_session *s)
{
	struct sm_explain *x = s->explain;
	const struct perf_event_mmap_page *pc = sm_model_page(&s->model, 0);

	for (unsigned i = 0; i < selfmon_npage_fields; i++) {
		const struct selfmon_page_field *f = &selfmon_page_fields[i];
		uint64_t a = selfmon_page_get(&x->last, f);
		uint64_t b = selfmon_page_get(pc, f);
		if (a == b)
			continue;
		if (f->is_signed)
			fprintf(x->f, "                page.%s: %" PRId64 " -> %" PRId64
			        "\n", f->name, (int64_t)a, (int64_t)b);
		else
			fprintf(x->f, "                page.%s: %" PRIu64 " -> %" PRIu64
			        "\n", f->name, a, b);
	}
	x->last = *pc;
}

void sm_explain_action(struct sm_session *s, enum sm_action_kind kind, int rc,
                       uint64_t before)
{
	struct sm_truth t;

	sm_model_truth(&s->model, 0, &t);
	fprintf(s->explain->f, "        >>> kernel: %s%s (%" PRIu64
	        " page updates); truth now count=%" PRIu64 " enabled=%" PRIu64
	        " running=%" PRIu64 "\n", sm_action_name(kind),
	        rc > 0 ? "" : rc == 0 ? " (does not apply now)" : " (error)",
	        s->model.updates - before, t.count, t.enabled, t.running);
	show_changes(s);
}

void sm_explain_store(struct sm_session *s, int off)
{
	const struct selfmon_page_field *f =
		off >= 0 ? selfmon_page_field_at((unsigned)off) : NULL;

	fprintf(s->explain->f, "        >>> remote writer stores page.%s\n",
	        f ? f->name : "?");
	show_changes(s);
}
