/*
 * state.c — the model's life: construction, snapshots, and the state as
 * named fields for pruning hashes.
 *
 * Owns: sm_model_new()/sm_model_free(), the environment setters,
 * sm_model_save()/restore()/copy() and sm_model_state_words().  What a
 * snapshot is, is said here by name, field by field: a field of struct
 * sm_kstate, sm_event, sm_cpu or sm_stores that is not named below is
 * neither saved nor hashed (test_model_consistency checks that a restored
 * model runs on as the original).  It must not decide kernel behaviour
 * (kernel.c) or page contents (userpage.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "userpage.h"

struct sm_model *sm_model_new(const struct sm_config *cfg, sm_observer fn,
                              void *ctx, char *err, size_t errlen)
{
	size_t al = _Alignof(struct sm_model); /* its pages are page-aligned */
	struct sm_model *m = aligned_alloc(al, (sizeof(*m) + al - 1) / al * al);

	if (!m) {
		if (err && errlen)
			snprintf(err, errlen, "model: out of memory");
		return NULL;
	}
	memset(m, 0, sizeof(*m));
	m->config = *cfg;
	m->cfg = &m->config;
	m->env.observe = fn;
	m->env.observe_ctx = ctx;
	m->env.activity_cap = SM_MODEL_HARD_CAP;
	if (sm_kernel_build(m, err, errlen) < 0) {
		free(m);
		return NULL;
	}
	return m;
}

/* In place, at the same address (an engine maps its pages): the state,
 * stores and pages as sm_model_new() leaves them; the environment kept. */
int sm_model_rebuild(struct sm_model *m, char *err, size_t errlen)
{
	memset(&m->k, 0, sizeof(m->k));
	memset(&m->sb, 0, sizeof(m->sb));
	memset(m->page, 0, sizeof(m->page));
	return sm_kernel_build(m, err, errlen);
}

void sm_model_free(struct sm_model *m)
{
	free(m);
}

void sm_model_observe(struct sm_model *m, sm_observer fn, void *ctx)
{
	m->env.observe = fn;
	m->env.observe_ctx = ctx;
}

void sm_model_set_cap(struct sm_model *m, uint64_t cap)
{
	m->env.activity_cap = cap;
}

/* ---- copies ---------------------------------------------------------- */

static void copy_event(struct sm_event *to, const struct sm_event *from)
{
	/* to->cfg stays: the destination's own configuration */
	to->state = from->state;
	to->counter = from->counter;
	to->last_counter = from->last_counter;
	to->added = from->added;
	to->collected = from->collected;
	to->mapped = from->mapped;
	to->unmapped = from->unmapped;
	to->read_cnt = from->read_cnt;
	to->count = from->count;
	to->prev_count = from->prev_count;
	to->period_left = from->period_left;
	to->period = from->period;
	to->total_enabled = from->total_enabled;
	to->total_running = from->total_running;
	to->tstamp = from->tstamp;
	to->sw_stamp = from->sw_stamp;
	to->event_limit = from->event_limit;
	to->truth = from->truth;
	to->truth_stamp = from->truth_stamp;
	to->redirected = from->redirected;
	to->interrupts = from->interrupts;
	to->throttled = from->throttled;
	to->last_period = from->last_period;
	to->freq_time_stamp = from->freq_time_stamp;
	to->freq_count_stamp = from->freq_count_stamp;
}

/* The kernel state for a configuration of nev events and ncpus CPUs: the
 * events and CPUs past those never change. */
static void copy_kstate(struct sm_kstate *to, const struct sm_kstate *from,
                        unsigned nev, unsigned ncpus)
{
	to->now = from->now;
	to->nopen = from->nopen;
	to->task_cpu = from->task_cpu;
	to->task_on = from->task_on;
	to->rotate_necessary = from->rotate_necessary;
	to->ctx_time = from->ctx_time;
	to->ctx_stamp = from->ctx_stamp;
	to->next_rotate = from->next_rotate;
	memcpy(to->flex_order, from->flex_order, sizeof(to->flex_order));
	to->nflex = from->nflex;
	to->adds = from->adds;
	to->cause = from->cause;
	to->updates = from->updates;
	to->activity = from->activity;
	to->capped = from->capped;
	for (unsigned i = 0; i < nev; i++)
		copy_event(&to->ev[i], &from->ev[i]);
	/* struct sm_cpu is clock parameters and counters: all state */
	memcpy(to->cpu, from->cpu, ncpus * sizeof(to->cpu[0]));
}

/* Of the store buffer, what has not landed (the rest is never read). */
static void copy_stores(struct sm_stores *to, const struct sm_stores *from)
{
	to->npending = from->npending;
	to->pending_next = from->pending_next;
	memcpy(to->pending + from->pending_next,
	       from->pending + from->pending_next,
	       (from->npending - from->pending_next) * sizeof(to->pending[0]));
	to->nbacklog = from->nbacklog;
	to->backlog_next = from->backlog_next;
	memcpy(to->backlog + from->backlog_next,
	       from->backlog + from->backlog_next,
	       (from->nbacklog - from->backlog_next) * sizeof(to->backlog[0]));
	to->frozen_until = from->frozen_until;
}

void sm_model_save(const struct sm_model *m, struct sm_snapshot *s)
{
	unsigned nev = m->cfg->nevents;

	copy_kstate(&s->k, &m->k, nev, m->cfg->ncpus);
	copy_stores(&s->sb, &m->sb);
	for (unsigned i = 0; i < nev; i++)
		s->page[i] = m->page[i].pc;
}

void sm_model_restore(struct sm_model *m, const struct sm_snapshot *s)
{
	unsigned nev = m->cfg->nevents;

	copy_kstate(&m->k, &s->k, nev, m->cfg->ncpus);
	copy_stores(&m->sb, &s->sb);
	for (unsigned i = 0; i < nev; i++)
		m->page[i].pc = s->page[i];
}

void sm_model_copy(struct sm_model *to, const struct sm_model *from)
{
	unsigned nev = from->cfg->nevents;

	copy_kstate(&to->k, &from->k, nev, from->cfg->ncpus);
	copy_stores(&to->sb, &from->sb);
	for (unsigned i = 0; i < nev; i++)
		to->page[i].pc = from->page[i].pc;
}

/* ---- the state as words ---------------------------------------------- */

#define MAXW 256

struct words {
	uint64_t w[MAXW];
	size_t n;
	void (*put)(void *h, const uint64_t *w, size_t n);
	void *h;
};

static void word(struct words *b, uint64_t v)
{
	if (b->n == MAXW) {
		b->put(b->h, b->w, b->n);
		b->n = 0;
	}
	b->w[b->n++] = v;
}

static void flush_words(struct words *b)
{
	if (b->n)
		b->put(b->h, b->w, b->n);
	b->n = 0;
}

static void event_words(struct words *b, const struct sm_event *e)
{
	word(b, (uint64_t)e->state);
	word(b, (uint64_t)(int64_t)e->counter);
	word(b, (uint64_t)(int64_t)e->last_counter);
	word(b, e->added);
	word(b, (uint64_t)e->mapped | (uint64_t)e->read_cnt << 1 |
	        (uint64_t)e->collected << 2 | (uint64_t)e->redirected << 3 |
	        (uint64_t)e->unmapped << 4);
	word(b, e->count);
	word(b, e->prev_count);
	word(b, (uint64_t)e->period_left);
	word(b, e->period);
	word(b, e->total_enabled);
	word(b, e->total_running);
	word(b, e->tstamp);
	word(b, e->sw_stamp);
	word(b, (uint64_t)(uint32_t)e->event_limit);
	word(b, e->truth);
	word(b, e->truth_stamp);
	word(b, e->interrupts);
	word(b, e->throttled);
	word(b, e->last_period);
	word(b, e->freq_time_stamp);
	word(b, e->freq_count_stamp);
}

static void cpu_words(struct words *b, const struct sm_cpu *c)
{
	word(b, c->mult | (uint64_t)c->shift << 32);
	word(b, c->offset_ns);
	word(b, c->epoch_cyc);
	word(b, c->epoch_ns);
	word(b, c->kept);
	for (int k = 0; k < SM_MAX_COUNTERS; k++) {
		word(b, c->ctr[k].base);
		word(b, c->ctr[k].base_time);
		word(b, (uint64_t)(int64_t)c->ctr[k].owner);
	}
}

static void store_words(struct words *b, const struct sm_store *s,
                        unsigned next, unsigned n)
{
	word(b, next);
	word(b, n);
	for (unsigned k = next; k < n; k++) {
		word(b, s[k].off | (uint64_t)s[k].size << 16 |
		        (uint64_t)(uint8_t)s[k].ev << 24);
		word(b, s[k].val);
	}
}

/* Everything copy_kstate() and copy_stores() keep, and the pages.  The
 * tallies (`updates`, `activity`) and the buffer's positions are in too:
 * two states that differ only there run on alike, but pruning has always
 * told them apart and its counts are part of the verdict table. */
void sm_model_state_words(const struct sm_model *m,
                          void (*put)(void *h, const uint64_t *w, size_t n),
                          void *h)
{
	const struct sm_kstate *k = &m->k;
	const struct sm_stores *sb = &m->sb;
	struct words b = { .n = 0, .put = put, .h = h };

	word(&b, k->now);
	word(&b, k->nopen);
	word(&b, k->task_cpu | (uint64_t)k->task_on << 32);
	word(&b, k->rotate_necessary);
	word(&b, k->ctx_time);
	word(&b, k->ctx_stamp);
	word(&b, k->next_rotate);
	word(&b, k->nflex);
	word(&b, k->adds);
	for (unsigned i = 0; i < k->nflex; i++)
		word(&b, k->flex_order[i]);
	word(&b, (uint64_t)k->cause);
	word(&b, k->updates);
	word(&b, k->activity);
	word(&b, k->capped);
	for (unsigned i = 0; i < m->cfg->nevents; i++)
		event_words(&b, &k->ev[i]);
	for (unsigned c = 0; c < m->cfg->ncpus; c++)
		cpu_words(&b, &k->cpu[c]);
	store_words(&b, sb->pending, sb->pending_next, sb->npending);
	store_words(&b, sb->backlog, sb->backlog_next, sb->nbacklog);
	word(&b, sb->frozen_until);
	flush_words(&b);
	for (unsigned i = 0; i < m->cfg->nevents; i++)
		put(h, (const uint64_t *)m->page[i].bytes,
		    sizeof(struct perf_event_mmap_page) / 8);
}
