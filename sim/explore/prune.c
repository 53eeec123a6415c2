/*
 * prune.c — the table of explored subtrees and the window's set hash
 * (prune.h).  Open addressing on the key's first word.
 *
 * Owns: the table and the keys.  It must not choose schedules (explore.c)
 * or know what an engine's state is (its hash op).
 */
#include <stdlib.h>
#include <string.h>

#include "prune.h"
#include "state_hash.h"

struct entry {
	struct sm_prune_key k;  /* {0, 0}: empty */
	struct sm_prune_counts n;
};

struct sm_prune {
	struct entry *t;
	size_t cap, used;   /* cap: a power of two */
	bool full;
};

void sm_window_hash_add(struct sm_window_hash *w, const struct sm_truth *samples,
                        unsigned n)
{
	for (unsigned i = w->n; i < n; i++) {
		bool read = w->split && i >= w->split;
		if (i > 0 && i != w->split &&
		    !memcmp(&samples[i], &w->last, sizeof(w->last)))
			continue;
		struct sm_hasher h;
		uint64_t out[2];
		sm_hash_init(&h);
		sm_hash_bytes(&h, &samples[i], sizeof(samples[i]));
		if (read)
			sm_hash_bytes(&h, "read", 4);
		sm_hash_final(&h, out);
		w->sum[0] += out[0];
		w->sum[1] += out[1];
		w->last = samples[i];
	}
	w->n = n;
}

struct sm_prune_key sm_prune_key(struct sm_session *s,
                                 const struct sm_engine_ops *ops,
                                 const struct sm_window_hash *w,
                                 enum sm_prune_kind kind, unsigned left)
{
	struct sm_hasher h;
	struct sm_prune_key k;
	uint64_t tail[4] = { kind, left, w->sum[0], w->sum[1] };

	sm_hash_init(&h);
	ops->hash(s, &h);
	sm_hash_bytes(&h, tail, sizeof(tail));
	sm_hash_final(&h, k.h);
	if (!(k.h[0] | k.h[1]))
		k.h[1] = 1; /* {0, 0} marks an empty slot */
	return k;
}

struct sm_prune *sm_prune_new(void)
{
	struct sm_prune *p = calloc(1, sizeof(*p));

	if (p && !(p->t = calloc(p->cap = 4096, sizeof(*p->t)))) {
		free(p);
		return NULL;
	}
	return p;
}

void sm_prune_free(struct sm_prune *p)
{
	if (p)
		free(p->t);
	free(p);
}

static struct entry *slot(struct entry *t, size_t cap, struct sm_prune_key k)
{
	for (size_t i = k.h[0] & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!(t[i].k.h[0] | t[i].k.h[1]) ||
		    (t[i].k.h[0] == k.h[0] && t[i].k.h[1] == k.h[1]))
			return &t[i];
}

bool sm_prune_find(const struct sm_prune *p, struct sm_prune_key k,
                   struct sm_prune_counts *n)
{
	const struct entry *e = slot(p->t, p->cap, k);

	if (!(e->k.h[0] | e->k.h[1]))
		return false;
	*n = e->n;
	return true;
}

/* Twice the slots (at most three in four are used). */
static bool grow(struct sm_prune *p)
{
	size_t cap = p->cap * 2;
	struct entry *t = calloc(cap, sizeof(*t));

	if (!t)
		return false;
	for (size_t i = 0; i < p->cap; i++)
		if (p->t[i].k.h[0] | p->t[i].k.h[1])
			*slot(t, cap, p->t[i].k) = p->t[i];
	free(p->t);
	p->t = t;
	p->cap = cap;
	return true;
}

void sm_prune_add(struct sm_prune *p, struct sm_prune_key k,
                  const struct sm_prune_counts *n)
{
	if (p->used >= SM_PRUNE_MAX ||
	    (4 * (p->used + 1) > 3 * p->cap && !grow(p))) {
		p->full = true;
		return;
	}
	struct entry *e = slot(p->t, p->cap, k);
	if (!(e->k.h[0] | e->k.h[1]))
		p->used++;
	*e = (struct entry){ k, *n };
}

bool sm_prune_full(const struct sm_prune *p)
{
	return p->full;
}
