/*
 * model_diff.c — `selfmon model --kernel-diff V|A..B SCENARIO`: the
 * scenario's timed actions played through the model twice, under the old
 * kernel and the new one, every page update of each recorded, and the
 * updates whose page differs printed field by field (a table with a
 * summary line, or one JSON document).
 *
 * Owns: what is compared (the page fields `model --json` shows, with
 * `capabilities` as its bits), how the two runs' updates are paired (in
 * order, by instant, action and event; an update one run has and the
 * other has not is "only under" its kernel; of one action's writes the
 * last pair), the cap on updates recorded,
 * and the diff's outputs.  It must not decide kernel behaviour (model/)
 * nor parse options (cmd_model.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundled.h"
#include "commands.h"
#include "input.h"
#include "json.h"
#include "model_diff.h"
#include "run.h"
#include "scenario.h"

/* Updates recorded per run: a scenario that loads (run.c caps its model
 * events) may still write its pages more often than is worth a diff; past
 * this the diff is refused with one line, before any output. */
#define MODEL_DIFF_MAX_UPDATES 200000u

const char *const model_cap_names[MODEL_NCAPS] = {
	"cap_bit0", "cap_bit0_is_deprecated", "cap_user_rdpmc",
	"cap_user_time", "cap_user_time_zero", "cap_user_time_short",
};

bool model_field_shown(const struct selfmon_page_field *f)
{
	return f->off < offsetof(struct perf_event_mmap_page, __reserved) &&
	       strcmp(f->name, "__reserved_1") != 0;
}

/* One compared value: a page field, or one bit of `capabilities` (bit
 * >= 0), or the bits of `capabilities` no name covers (bit -2). */
struct column {
	const char *name;
	const struct selfmon_page_field *f;
	int bit;
};

#define MAX_COLUMNS 64

struct update {
	uint64_t at;
	enum sm_action_kind why;
	int ev;
};

struct record {
	struct column col[MAX_COLUMNS];
	unsigned ncol;
	struct update *u;
	uint64_t *val;   /* ncol per update */
	unsigned n, cap;
	bool full;       /* more than MODEL_DIFF_MAX_UPDATES */
};

static void columns(struct record *r)
{
	for (unsigned i = 0; i < selfmon_npage_fields; i++) {
		const struct selfmon_page_field *f = &selfmon_page_fields[i];
		if (!model_field_shown(f) || r->ncol + MODEL_NCAPS + 2 > MAX_COLUMNS)
			continue;
		bool caps = !strcmp(f->name, "capabilities");
		for (int b = 0; caps && b < MODEL_NCAPS; b++)
			r->col[r->ncol++] = (struct column){ model_cap_names[b], f, b };
		r->col[r->ncol++] = (struct column){ f->name, f, caps ? -2 : -1 };
	}
}

static uint64_t column_value(const struct column *c,
                             const struct perf_event_mmap_page *pc)
{
	uint64_t v = selfmon_page_get(pc, c->f);
	return c->bit >= 0 ? (v >> c->bit) & 1
	       : c->bit == -2 ? v & ~(((uint64_t)1 << MODEL_NCAPS) - 1) : v;
}

static void on_update(void *ctx, const void *model, int ev,
                      enum sm_action_kind why)
{
	struct record *r = ctx;
	const struct sm_model *m = model;
	struct perf_event_mmap_page pc;

	if (r->full || r->n == MODEL_DIFF_MAX_UPDATES) {
		r->full = true;
		return;
	}
	if (r->n == r->cap) {
		unsigned cap = r->cap ? r->cap * 2 : 64;
		struct update *u = realloc(r->u, cap * sizeof(*u));
		if (u)
			r->u = u;
		uint64_t *v = u ? realloc(r->val, (size_t)cap * r->ncol *
		                                      sizeof(*v)) : NULL;
		if (!v) {
			r->full = true; /* said as out of memory by the caller */
			return;
		}
		r->val = v;
		r->cap = cap;
	}
	sm_model_page_after(m, ev, &pc);
	r->u[r->n] = (struct update){ sm_model_now(m) - sm_model_config(m)->start, why, ev };
	for (unsigned c = 0; c < r->ncol; c++)
		r->val[(size_t)r->n * r->ncol + c] = column_value(&r->col[c], &pc);
	r->n++;
}

/* Play the scenario under `kernel`, recording each page update. */
static int record_run(struct sm_scenario *scn, unsigned kernel,
                      struct record *r)
{
	char err[1024], kn[256];

	scn->cfg.kernel = kernel;
	columns(r);
	struct sm_model *m = sm_model_new(&scn->cfg, on_update, r, err,
	                                  sizeof(err));
	if (!m)
		return sm_error("%s: %s", scn->name, err);
	int rc = sm_scenario_run(m, scn, scn->end, err, sizeof(err));
	sm_model_free(m);
	if (rc < 0)
		return sm_error("%s", err);
	if (r->full && r->n < MODEL_DIFF_MAX_UPDATES)
		return sm_error("model: out of memory");
	if (r->full)
		return sm_error("model: %s: more than %u page updates under "
		                "kernel %s: too many to diff", scn->name,
		                MODEL_DIFF_MAX_UPDATES,
		                sm_kernel_text(kernel, kn, sizeof(kn)));
	return 0;
}

static bool same_update(const struct update *a, const struct update *b)
{
	return a->at == b->at && a->why == b->why && a->ev == b->ev;
}

/* How many updates from i on are of the same instant, action and
 * event: one action's writes. */
static unsigned run_of(const struct record *r, unsigned i)
{
	unsigned k = i + 1;

	while (k < r->n && same_update(&r->u[i], &r->u[k]))
		k++;
	return k - i;
}

/* The next step of the pairing of old update i with new update j: 'p'
 * a pair, 'o' old's update only, 'n' new's only.  Updates are paired in
 * order.  Where one action writes the page more often under one kernel,
 * the last writes pair (the page the action leaves) and the first are
 * that kernel's only; where the runs part, the earlier update goes
 * alone, and at one instant the new side's when the old one's is its
 * next. */
static char step(const struct record *o, unsigned i, const struct record *n,
                 unsigned j)
{
	if (i == o->n)
		return 'n';
	if (j == n->n)
		return 'o';
	if (same_update(&o->u[i], &n->u[j])) {
		unsigned ro = run_of(o, i), rn = run_of(n, j);
		return ro == rn ? 'p' : ro > rn ? 'o' : 'n';
	}
	if (o->u[i].at != n->u[j].at)
		return o->u[i].at < n->u[j].at ? 'o' : 'n';
	return j + 1 < n->n && same_update(&o->u[i], &n->u[j + 1]) ? 'n' : 'o';
}

struct diff {
	const struct sm_scenario *scn;
	const struct record *o, *n;
	char oldk[256], newk[256];
	bool json;
	struct json js;
	unsigned compared, differ, fields, only_old, only_new;
};

static void print_value(const struct column *c, uint64_t v)
{
	if (c->f->is_signed && c->bit == -1)
		printf(" %21" PRId64, (int64_t)v);
	else
		printf(" %21" PRIu64, v);
}

static void json_value(struct json *j, const char *key,
                       const struct column *c, uint64_t v)
{
	if (c->f->is_signed && c->bit == -1)
		json_i64(j, key, (int64_t)v);
	else
		json_u64(j, key, v);
}

/* The update's instant, action and event: a row's start, or JSON keys. */
static void update_head(struct diff *d, const struct update *u)
{
	if (d->json) {
		json_u64(&d->js, "at", u->at);
		json_str(&d->js, "action", sm_action_name(u->why));
		json_str(&d->js, "event", d->scn->cfg.event[u->ev].name);
	} else {
		printf("%8" PRIu64 " %-11s %-12s", u->at, sm_action_name(u->why),
		       d->scn->cfg.event[u->ev].name);
	}
}

static void only_one(struct diff *d, const struct update *u, bool old)
{
	*(old ? &d->only_old : &d->only_new) += 1;
	if (d->json) {
		json_begin(&d->js, NULL, '{');
		update_head(d, u);
		json_str(&d->js, "only", old ? "old" : "new");
		json_end(&d->js, '{');
		return;
	}
	update_head(d, u);
	printf(" (only under %s)\n", old ? d->oldk : d->newk);
}

static void pair(struct diff *d, unsigned i, unsigned j)
{
	const struct record *o = d->o, *n = d->n;
	const uint64_t *a = &o->val[(size_t)i * o->ncol];
	const uint64_t *b = &n->val[(size_t)j * n->ncol];
	unsigned k = 0;

	d->compared++;
	for (unsigned c = 0; c < o->ncol; c++) {
		if (a[c] == b[c])
			continue;
		if (k++ == 0) {
			d->differ++;
			if (d->json) {
				json_begin(&d->js, NULL, '{');
				update_head(d, &o->u[i]);
				json_begin(&d->js, "fields", '[');
			} else {
				update_head(d, &o->u[i]);
			}
		} else if (!d->json) {
			printf("%8s %-11s %-12s", "", "", "");
		}
		d->fields++;
		if (d->json) {
			json_begin(&d->js, NULL, '{');
			json_str(&d->js, "field", o->col[c].name);
			json_value(&d->js, "old", &o->col[c], a[c]);
			json_value(&d->js, "new", &o->col[c], b[c]);
			json_end(&d->js, '{');
		} else {
			printf(" %-22s", o->col[c].name);
			print_value(&o->col[c], a[c]);
			print_value(&o->col[c], b[c]);
			putchar('\n');
		}
	}
	if (k && d->json) {
		json_end(&d->js, '[');
		json_end(&d->js, '{');
	}
}

static void walk(struct diff *d)
{
	for (unsigned i = 0, j = 0; i < d->o->n || j < d->n->n;) {
		char s = step(d->o, i, d->n, j);
		if (s == 'p')
			pair(d, i++, j++);
		else if (s == 'o')
			only_one(d, &d->o->u[i++], true);
		else
			only_one(d, &d->n->u[j++], false);
	}
}

static void print_diff(struct diff *d, const char *name)
{
	if (d->json) {
		json_init(&d->js, stdout);
		json_begin(&d->js, NULL, '{');
		json_str(&d->js, "scenario", name);
		json_str(&d->js, "arch", sm_arch_name(d->scn->cfg.arch));
		json_str(&d->js, "old_kernel", d->oldk);
		json_str(&d->js, "new_kernel", d->newk);
		json_begin(&d->js, "updates", '[');
		walk(d);
		json_end(&d->js, '[');
		json_u64(&d->js, "compared", d->compared);
		json_u64(&d->js, "differ", d->differ);
		json_u64(&d->js, "fields", d->fields);
		json_u64(&d->js, "only_old", d->only_old);
		json_u64(&d->js, "only_new", d->only_new);
		json_end(&d->js, '{');
		putchar('\n');
		return;
	}
	printf("kernel diff: %s (%s), %s -> %s: the page writes that differ\n",
	       name, sm_arch_name(d->scn->cfg.arch), d->oldk, d->newk);
	printf("%8s %-11s %-12s %-22s %21.21s %21.21s\n", "at", "action",
	       "event", "field", d->oldk, d->newk);
	walk(d);
	printf("\n%u of %u updates differ (%u field%s); %u only under %s, %u "
	       "only under %s\n", d->differ, d->compared, d->fields,
	       d->fields == 1 ? "" : "s", d->only_old,
	       d->oldk, d->only_new, d->newk);
}

int model_kernel_diff(const char *path, bool range, unsigned from,
                      bool from_given, unsigned to, bool json)
{
	struct sm_scenario *scn = malloc(sizeof(*scn));
	struct record o = { 0 }, n = { 0 };
	char err[1024], *name = strdup(path);
	int rc = 2;

	if (!scn || !name) {
		rc = sm_error("model: out of memory");
		goto out;
	}
	sm_printable(name); /* the diff names the scenario on stdout */
	if (sm_scenario_open(path, scn, err, sizeof(err)) < 0) {
		rc = sm_error("%s", err);
		goto out;
	}
	unsigned old = range || from_given ? from : scn->cfg.kernel;
	unsigned new = range ? to : old | to;
	if (sm_kernel_check_arch(old, scn->cfg.arch, err, sizeof(err)) < 0 ||
	    sm_kernel_check_arch(new, scn->cfg.arch, err, sizeof(err)) < 0) {
		rc = sm_error("model: %s: %s", path, err);
		goto out;
	}
	if (record_run(scn, old, &o) != 0 || record_run(scn, new, &n) != 0)
		goto out;
	struct diff d = { .scn = scn, .o = &o, .n = &n, .json = json };
	sm_kernel_text(old, d.oldk, sizeof(d.oldk));
	sm_kernel_text(new, d.newk, sizeof(d.newk));
	print_diff(&d, name);
	rc = 0;
out:
	free(o.u);
	free(o.val);
	free(n.u);
	free(n.val);
	free(name);
	free(scn);
	return rc;
}
