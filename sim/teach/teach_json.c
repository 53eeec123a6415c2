/*
 * teach_json.c — the recorded listing as one JSON document (see teach.h).
 *
 * Owns: grouping the recorded events by step (the kernel's writes landing
 * before the instruction, the instruction, its page loads, its trapped
 * reads) and the call's header and result around them.
 */
#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "lands.h"
#include "notation.h"
#include "result_json.h"
#include "teach.h"

static void str_u64(struct json *j, const char *key, uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	json_str(j, key, buf);
}

/* A page field's value as the ABI types it (signed fields signed). */
static void field_value(struct json *j, const char *key, int field,
                        uint64_t v)
{
	char buf[32];
	if (field >= 0 && selfmon_page_fields[field].is_signed)
		snprintf(buf, sizeof(buf), "%" PRId64, (int64_t)v);
	else
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	json_str(j, key, buf);
}

static int field_index_of(const char *name)
{
	for (unsigned i = 0; i < selfmon_npage_fields; i++)
		if (!strcmp(selfmon_page_fields[i].name, name))
			return (int)i;
	return -1;
}

static const char *field_name(int field)
{
	return field >= 0 ? selfmon_page_fields[field].name : "__reserved";
}

static void fields(struct json *j)
{
	json_begin(j, "fields", '[');
	for (unsigned i = 0; i < selfmon_npage_fields; i++) {
		const struct selfmon_page_field *f = &selfmon_page_fields[i];
		json_begin(j, NULL, '{');
		json_str(j, "name", f->name);
		json_u64(j, "off", f->off);
		json_u64(j, "size", f->size);
		json_bool(j, "signed", f->is_signed);
		json_end(j, '{');
	}
	json_end(j, '[');
}

static void page(struct json *j, const struct perf_event_mmap_page *pc)
{
	json_begin(j, "page", '{');
	for (unsigned i = 0; i < selfmon_npage_fields; i++)
		field_value(j, selfmon_page_fields[i].name, (int)i,
		            selfmon_page_get(pc, &selfmon_page_fields[i]));
	json_end(j, '{');
}

static void truth(struct json *j, const char *key, const struct sm_truth *t)
{
	json_begin(j, key, '{');
	str_u64(j, "count", t->count);
	str_u64(j, "enabled", t->enabled);
	str_u64(j, "running", t->running);
	json_end(j, '{');
}

/* The KCHANGEs at ev[i, end) as "kstate": {"changed": [[key, old, new,
 * what new means], ...], "says": the listing's line}, if there are any;
 * the index after them. */
static size_t kstate_changes(struct json *j, const struct sm_config *cfg,
                             enum sm_action_kind why,
                             const struct sm_xevent *ev, size_t i, size_t end)
{
	struct sm_kchange c[SM_KVIEW_MAX_ITEMS];
	unsigned n = 0;
	char key[64], old[64], now[64], note[300], says[4096];

	for (; i < end && ev[i].kind == SM_X_KCHANGE; i++)
		if (n < SM_KVIEW_MAX_ITEMS)
			c[n++] = (struct sm_kchange){ .item = (unsigned)ev[i].field,
			                              .old = ev[i].old,
			                              .value = ev[i].value };
	if (!n)
		return i;
	json_begin(j, "kstate", '{');
	json_begin(j, "changed", '[');
	for (unsigned k = 0; k < n; k++) {
		sm_kview_item_key(cfg, c[k].item, key, sizeof(key));
		sm_kview_item_text(cfg, c[k].item, c[k].old, old, sizeof(old));
		sm_kview_item_text(cfg, c[k].item, c[k].value, now, sizeof(now));
		sm_kview_item_note(cfg, c[k].item, c[k].value, note, sizeof(note));
		json_begin(j, NULL, '[');
		json_str(j, NULL, key);
		json_str(j, NULL, old);
		json_str(j, NULL, now);
		json_str(j, NULL, note);
		json_end(j, '[');
	}
	json_end(j, '[');
	sm_kview_change_text(cfg, why, c, n, says, sizeof(says));
	json_str(j, "says", says);
	json_end(j, '{');
	return i;
}

/* An ACTION or a STORE at ev[i] with the CHANGEs after it; the index
 * after them. */
static size_t kernel_write(struct json *j, const struct sm_config *cfg,
                           const struct sm_xevent *ev, size_t i, size_t end)
{
	const struct sm_xevent *e = &ev[i];
	json_begin(j, NULL, '{');
	if (e->kind == SM_X_ACTION) {
		json_str(j, "action", sm_action_name(e->action));
		json_bool(j, "applied", e->rc > 0);
		json_u64(j, "updates", e->updates);
		truth(j, "truth", &e->truth);
	} else {
		json_str(j, "store", field_name(e->field));
	}
	json_begin(j, "changes", '[');
	for (i++; i < end && ev[i].kind == SM_X_CHANGE; i++) {
		json_begin(j, NULL, '[');
		json_str(j, NULL, field_name(ev[i].field));
		field_value(j, NULL, ev[i].field, ev[i].old);
		field_value(j, NULL, ev[i].field, ev[i].value);
		json_end(j, '[');
	}
	json_end(j, '[');
	i = kstate_changes(j, cfg, e->kind == SM_X_ACTION ? e->action :
	                   SM_NACTIONS, ev, i, end);
	json_end(j, '{');
	return i;
}

/* The text of an instruction's source line ("" when not shown) and,
 * the first time a file's text cannot be shown, why. */
static void src_text(struct json *j, const struct sm_xevent *e)
{
	json_str(j, "src_text", e->src_text ? e->src_text : "");
	if (e->src_note)
		json_str(j, "src_note", e->src_note);
}

static void insn(struct json *j, const struct sm_xevent *e)
{
	char buf[40], hex[2 * sizeof(e->bytes) + 1];

	if (e->kind == SM_X_NATIVE) {
		json_str(j, "native", e->text);
		src_text(j, e);
		return;
	}
	snprintf(buf, sizeof(buf), "0x%" PRIx64, e->addr);
	json_str(j, "addr", buf);
	for (unsigned k = 0; k < e->len; k++)
		snprintf(hex + 2 * k, 3, "%02x", e->bytes[k]);
	hex[2 * e->len] = '\0';
	json_str(j, "bytes", hex);
	json_str(j, "insn", e->text);
	json_str(j, "src", e->where ? e->where : "");
	src_text(j, e);
}

static void load(struct json *j, const struct sm_xevent *e)
{
	json_begin(j, NULL, '{');
	json_str(j, "field", field_name(e->field));
	json_bool(j, "part", e->field >= 0 &&
	          selfmon_page_fields[e->field].off != e->off);
	json_u64(j, "off", e->off);
	json_u64(j, "size", e->size);
	str_u64(j, "value", e->value);
	json_end(j, '{');
}

static void trap(struct json *j, const struct sm_xevent *e)
{
	json_begin(j, NULL, '{');
	json_str(j, "what", e->text);
	str_u64(j, "arg", e->arg);
	str_u64(j, "value", e->value);
	str_u64(j, "cycle", e->cycle);
	json_end(j, '{');
}

/* The events ev[from, end) of one step, grouped. */
static void step(struct json *j, const struct sm_config *cfg,
                 const struct sm_xevent *ev, size_t from, size_t end)
{
	json_begin(j, NULL, '{');
	json_u64(j, "step", ev[from].step);
	json_begin(j, "kernel", '[');
	for (size_t i = from; i < end;)
		if (ev[i].kind == SM_X_ACTION || ev[i].kind == SM_X_STORE)
			i = kernel_write(j, cfg, ev, i, end);
		else
			i++;
	json_end(j, '[');
	for (size_t i = from; i < end; i++)
		if (ev[i].kind == SM_X_INSN || ev[i].kind == SM_X_NATIVE)
			insn(j, &ev[i]);
	json_begin(j, "loads", '[');
	for (size_t i = from; i < end; i++)
		if (ev[i].kind == SM_X_LOAD)
			load(j, &ev[i]);
	json_end(j, '[');
	json_begin(j, "traps", '[');
	for (size_t i = from; i < end; i++)
		if (ev[i].kind == SM_X_TRAP)
			trap(j, &ev[i]);
	json_end(j, '[');
	json_end(j, '{');
}

static void steps(struct json *j, const struct sm_config *cfg,
                  const struct sm_explain *x)
{
	json_begin(j, "steps", '[');
	for (size_t i = 0, k; i < x->nev; i = k) {
		for (k = i + 1; k < x->nev && x->ev[k].step == x->ev[i].step; k++)
			;
		step(j, cfg, x->ev, i, k);
	}
	json_end(j, '[');
	json_u64(j, "not_listed", x->quiet);
}

/* Lowest and highest of one truth value (0 count, 1 enabled, 2 running)
 * over the oracle's window. */
static void window(struct json *j, const char *key, const struct sm_session *s,
                   int which)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (unsigned i = 0; i < s->run.nsamples; i++) {
		const struct sm_truth *x = &s->samples[i];
		uint64_t v = which == 0 ? x->count : which == 1 ? x->enabled
		             : x->running;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	json_begin(j, key, '[');
	str_u64(j, NULL, s->run.nsamples ? lo : 0);
	str_u64(j, NULL, hi);
	json_end(j, '[');
}

static void result(struct json *j, const struct sm_session *s)
{
	const struct sm_result *r = &s->res;
	json_begin(j, "result", '{');
	json_str(j, "verdict", sm_verdict_name(r->verdict));
	json_bool(j, "fails", sm_verdict_fails(r->verdict));
	json_str(j, "detail", r->detail);
	sm_result_json(j, r);
	json_u64(j, "steps", r->steps);
	json_bool(j, "returned_values", r->verdict == SM_V_PASS ||
	          r->verdict == SM_V_WRONG_VALUE);
	json_i64(j, "rc", r->rc);
	json_begin(j, "returned", '{');
	str_u64(j, "count", r->value[0]);
	str_u64(j, "enabled", r->value[1]);
	str_u64(j, "running", r->value[2]);
	json_end(j, '{');
	json_begin(j, "truth", '{');
	window(j, "count", s, 0);
	window(j, "enabled", s, 1);
	window(j, "running", s, 2);
	json_end(j, '{');
	json_end(j, '{');
}

static void header(struct json *j, const struct sm_teach *t)
{
	const struct sm_session *s = t->s;
	json_str(j, "schedule", t->schedule);
	json_str(j, "arch", sm_arch_name(s->scn->cfg.arch));
	json_str(j, "engine", sm_engine_name(s->engine));
	json_str(j, "reader", s->reader->name);
	json_str(j, "abi", sm_abi_name(s->reader->abi));
	json_str(j, "what", s->reader->what ? s->reader->what : "");
	if (t->fault)
		json_str(j, "fault", t->fault);
	if (t->fix)
		json_str(j, "fix", t->fix);
	json_str(j, "scenario", t->scenario);
	json_str(j, "event", s->scn->cfg.event[0].name);
	str_u64(j, "check_at", s->scn->check_at);
	json_bool(j, "remote_writer", s->scn->cfg.writer == SM_WRITER_REMOTE);
}

static void index_name(struct json *j, enum sm_arch a, uint32_t index)
{
	char key[16], hex[24], name[80], both[120];
	snprintf(key, sizeof(key), "%" PRIu32, index);
	sm_index_short(a, index, hex, sizeof(hex));
	sm_index_counter(a, index, name, sizeof(name));
	snprintf(both, sizeof(both), "%s: %s", hex, name);
	json_str(j, key, both);
}

/* Every index the page holds during the call, named (notation.h). */
static void index_names(struct json *j, const struct sm_teach *t)
{
	uint32_t seen[64];
	unsigned n = 0;
	enum sm_arch a = t->s->scn->cfg.arch;
	int fi = field_index_of("index");

	json_begin(j, "index_names", '{');
	seen[n++] = t->x->first.index;
	index_name(j, a, t->x->first.index);
	for (size_t i = 0; i < t->x->nev && n < 64; i++) {
		const struct sm_xevent *e = &t->x->ev[i];
		if (e->kind != SM_X_CHANGE || e->field != fi)
			continue;
		unsigned k = 0;
		while (k < n && seen[k] != (uint32_t)e->value)
			k++;
		if (k == n) {
			seen[n++] = (uint32_t)e->value;
			index_name(j, a, (uint32_t)e->value);
		}
	}
	json_end(j, '{');
}

/* The kernel state off the page when the call began, one row an item:
 * {"key", "label", "value", "note"}, and the CPU whose registers these
 * are. */
static void kstate(struct json *j, const struct sm_config *cfg,
                   const struct sm_kview *v)
{
	char key[64], label[80], val[64], note[300];

	json_begin(j, "kstate", '{');
	json_u64(j, "cpu", v->cpu);
	json_begin(j, "rows", '[');
	for (unsigned i = 0, n = sm_kview_nitems(cfg); i < n; i++) {
		int ev, kind = sm_kview_item_kind(cfg, i, &ev);
		if (kind == SM_KI_PMUACR && !v->has_pmuacr)
			continue;
		uint64_t x = sm_kview_item(cfg, v, i);
		sm_kview_item_key(cfg, i, key, sizeof(key));
		sm_kview_item_label(cfg, i, label, sizeof(label));
		sm_kview_item_text(cfg, i, x, val, sizeof(val));
		sm_kview_item_note(cfg, i, x, note, sizeof(note));
		json_begin(j, NULL, '{');
		json_str(j, "key", key);
		json_str(j, "label", label);
		json_str(j, "value", val);
		json_str(j, "note", note);
		json_end(j, '{');
	}
	json_end(j, '[');
	json_end(j, '{');
}

/* Where each injected action lands in the read (lands.h), in words. */
static void lands(struct json *j, const struct sm_teach *t)
{
	char text[400];

	json_begin(j, "lands", '[');
	for (unsigned i = 0; t->sched && i < t->sched->n; i++) {
		const struct sm_sched_item *it = &t->sched->item[i];
		sm_lands_text(t->x, it->step, text, sizeof(text));
		json_begin(j, NULL, '{');
		json_str(j, "kind", sm_action_name(it->kind));
		json_u64(j, "step", it->step);
		json_str(j, "text", text);
		json_end(j, '{');
	}
	json_end(j, '[');
}

void sm_teach_json(FILE *f, const struct sm_teach *t)
{
	struct json j;

	json_init(&j, f);
	json_begin(&j, NULL, '{');
	header(&j, t);
	fields(&j);
	page(&j, &t->x->first);
	index_names(&j, t);
	kstate(&j, sm_model_config(t->s->model), &t->x->kfirst);
	steps(&j, sm_model_config(t->s->model), t->x);
	result(&j, t->s);
	lands(&j, t);
	if (t->more)
		t->more(&j, t->more_arg);
	json_end(&j, '{');
	fputc('\n', f);
}
