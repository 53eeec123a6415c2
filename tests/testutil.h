/*
 * testutil.h — small helpers shared by the model tests: building configs
 * by hand, and the reader-side arithmetic of the ABI written out
 * independently of the model code.
 */
#ifndef SELFMON_TESTUTIL_H
#define SELFMON_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model.h"

/* A test binary of two tiers runs its fast tests bare and the rest when
 * given "slow" (ctest registers both, the second labelled slow). */
static inline bool sm_slow_tier(int argc, char **argv)
{
	return argc > 1 && !strcmp(argv[1], "slow");
}

static inline int add_event(struct sm_config *c, const char *name,
                            enum sm_event_type t, int counter, bool pinned)
{
	struct sm_event_cfg *e = &c->event[c->nevents];
	memset(e, 0, sizeof(*e));
	strncpy(e->name, name, sizeof(e->name) - 1);
	e->type = t;
	e->counter = counter;
	e->pinned = pinned;
	e->enabled = true;
	e->mmap = true;
	e->user = true;
	e->rate = 1;
	return (int)c->nevents++;
}

/* Hybrid PMUs: two CPU types, t1 on the even CPUs, t2 on the odd ones. */
static inline void set_hybrid(struct sm_config *c, const char *t1,
                              const char *t2)
{
	c->npmu_types = 2;
	strncpy(c->pmu_type_name[0], t1, SM_NAME_MAX - 1);
	strncpy(c->pmu_type_name[1], t2, SM_NAME_MAX - 1);
	for (unsigned k = 0; k < SM_MAX_CPUS; k++)
		c->cpu_type[k] = 1 + k % 2;
}

/* A test's model, built anew (the one before it freed). */
static inline int model_init(struct sm_model **m, const struct sm_config *c,
                             sm_observer fn, void *ctx, char *err, size_t n)
{
	sm_model_free(*m);
	*m = sm_model_new(c, fn, ctx, err, n);
	return *m ? 0 : -1;
}

static inline void init_model(struct sm_model **m, const struct sm_config *c)
{
	char err[256] = "";
	if (model_init(m, c, NULL, NULL, err, sizeof(err)) != 0)
		fail_msg("sm_model_new: %s", err);
}

static inline int act(struct sm_model *m, enum sm_action_kind k, int ev)
{
	struct sm_action a = { .kind = k, .event = ev, .cpu = SM_AUTO,
	                       .counter = SM_AUTO, .cycles = 1000 };
	char err[256];
	return sm_model_apply(m, &a, err, sizeof(err));
}

/* Every page update of the model, in order (an sm_observer): the page
 * each one left, as a reader on the same CPU would see it. */
#define PAGE_LOG_MAX 64
struct page_log {
	unsigned n;
	int ev[PAGE_LOG_MAX];
	struct perf_event_mmap_page pg[PAGE_LOG_MAX];
};

static inline void page_log_note(void *ctx, const void *model, int ev,
                                 enum sm_action_kind why)
{
	struct page_log *l = ctx;
	const struct sm_model *m = model;
	(void)why;
	assert_true(l->n < PAGE_LOG_MAX);
	l->ev[l->n] = ev;
	l->pg[l->n++] = *sm_model_page(m, ev);
}

/* pmc <<= 64 - width; pmc >>= 64 - width (arithmetic), as the uapi
 * header's reader loop does. */
static inline uint64_t sext(uint64_t v, unsigned w)
{
	if (w >= 64)
		return v;
	return (uint64_t)((int64_t)(v << (64 - w)) >> (64 - w));
}

static inline uint64_t zext(uint64_t v, unsigned w)
{
	return w >= 64 ? v : v & ((1ull << w) - 1);
}

/* mul_u64_u32_shr as the uapi comment defines it. */
static inline uint64_t mulshr(uint64_t c, uint32_t mult, unsigned shift)
{
	return (uint64_t)(((unsigned __int128)c * mult) >> shift);
}

#endif
