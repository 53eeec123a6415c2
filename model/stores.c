/*
 * stores.c — the page writer's store buffer: how the stores of page writes
 * become visible to the reader.
 *
 * Owns: struct sm_stores.  The local writer (all stores of a write land at
 * once, between two reader instructions) and the remote writer (each store
 * is a separate step a reader on another CPU can see, the writes of one
 * action one after the other: a sched in writes the page two or three
 * times, and such a reader can see any prefix of all of them; on arm64 and
 * riscv64 also the closing ++lock before the fields,
 * sm_model_lock_early()).  It must not decide what a write holds
 * (userpage.c) or touch the kernel state (kernel.c); it reads only the
 * time, for lock_early's hold.
 */
#include <string.h>

#include "stores.h"

typedef struct perf_event_mmap_page page_t;

static void apply_store(struct sm_model *m, const struct sm_store *s)
{
	uint8_t *to = m->page[s->ev].bytes + s->off;

	switch (s->size) { /* fixed sizes: moves, not a call */
	case 8: memcpy(to, &s->val, 8); break;
	case 4: memcpy(to, &s->val, 4); break;
	case 2: memcpy(to, &s->val, 2); break;
	default: memcpy(to, &s->val, s->size); break;
	}
}

static void land_backlog(struct sm_model *m)
{
	while (m->sb.backlog_next < m->sb.nbacklog)
		apply_store(m, &m->sb.backlog[m->sb.backlog_next++]);
	m->sb.nbacklog = m->sb.backlog_next = 0;
}

/* A new update of the same action: what is left of the last one joins
 * the backlog and lands before it (all of it now if there is no room:
 * that is a reader that did not look in the meantime). */
static void queue_pending(struct sm_model *m)
{
	unsigned left = m->sb.npending - m->sb.pending_next;

	if (m->sb.nbacklog + left > SM_MAX_BACKLOG)
		land_backlog(m);
	memcpy(&m->sb.backlog[m->sb.nbacklog], &m->sb.pending[m->sb.pending_next],
	       left * sizeof(m->sb.pending[0]));
	m->sb.nbacklog += left;
	m->sb.npending = m->sb.pending_next = 0;
}

/* The stores of one page write join the buffer: the local writer lands
 * them at once. */
void sm_stores_push(struct sm_model *m, const struct sm_store *st, unsigned n)
{
	queue_pending(m);
	memcpy(m->sb.pending, st, n * sizeof(st[0]));
	m->sb.npending = n;
	m->sb.pending_next = 0;
	if (m->cfg->writer == SM_WRITER_LOCAL)
		sm_model_flush(m);
}

/* The page as it is, and as a pending store would leave it. */
static void shadow_of(const struct sm_model *m, int ev, page_t *out)
{
	*out = m->page[ev].pc;
	for (unsigned k = m->sb.backlog_next; k < m->sb.nbacklog; k++)
		if (m->sb.backlog[k].ev == ev)
			memcpy((uint8_t *)out + m->sb.backlog[k].off,
			       &m->sb.backlog[k].val, m->sb.backlog[k].size);
	for (unsigned k = m->sb.pending_next; k < m->sb.npending; k++)
		if (m->sb.pending[k].ev == ev)
			memcpy((uint8_t *)out + m->sb.pending[k].off,
			       &m->sb.pending[k].val, m->sb.pending[k].size);
}

unsigned sm_model_pending(const struct sm_model *m)
{
	return m->sb.nbacklog - m->sb.backlog_next + m->sb.npending - m->sb.pending_next;
}

static const struct sm_store *next_store(const struct sm_model *m)
{
	if (m->sb.backlog_next < m->sb.nbacklog)
		return &m->sb.backlog[m->sb.backlog_next];
	return m->sb.pending_next < m->sb.npending ? &m->sb.pending[m->sb.pending_next]
	                                     : NULL;
}

int sm_model_next_store(const struct sm_model *m)
{
	if (m->k.now < m->sb.frozen_until)
		return -1;
	const struct sm_store *s = next_store(m);
	return s ? s->off : -1;
}

/* The next store in flight lands, frozen or not. */
int sm_store_land(struct sm_model *m)
{
	const struct sm_store *s = next_store(m);

	if (!s)
		return -1;
	apply_store(m, s);
	if (m->sb.backlog_next < m->sb.nbacklog) {
		if (++m->sb.backlog_next == m->sb.nbacklog)
			m->sb.nbacklog = m->sb.backlog_next = 0;
	} else {
		m->sb.pending_next++;
	}
	return s->off;
}

int sm_model_store_step(struct sm_model *m)
{
	return m->k.now < m->sb.frozen_until ? -1 : sm_store_land(m);
}

/* The k-th store in flight (backlog first), and taking it out. */
static struct sm_store *queued(struct sm_model *m, unsigned k)
{
	unsigned b = m->sb.nbacklog - m->sb.backlog_next;

	return k < b ? &m->sb.backlog[m->sb.backlog_next + k]
	             : &m->sb.pending[m->sb.pending_next + k - b];
}

static void unqueue(struct sm_model *m, unsigned k)
{
	unsigned b = m->sb.nbacklog - m->sb.backlog_next;
	struct sm_store *q = k < b ? &m->sb.backlog[m->sb.backlog_next + k]
	                           : &m->sb.pending[m->sb.pending_next + k - b];
	struct sm_store *end = k < b ? &m->sb.backlog[m->sb.nbacklog]
	                             : &m->sb.pending[m->sb.npending];

	memmove(q, q + 1, (size_t)(end - q - 1) * sizeof(*q));
	if (k < b)
		m->sb.nbacklog--;
	else
		m->sb.npending--;
}

/* arm64 and riscv64: perf_event_update_userpage() orders its stores with
 * barrier() only (no smp_wmb()), so a reader on another CPU may observe
 * them out of program order; coherence keeps only the order of the stores
 * to one location.  The one reordering that defeats the seqlock is the
 * closing ++lock seen before fields it guards: it lands now, with the
 * opening ++lock first if that was still in flight (one location), and
 * the stores still in flight stay invisible for SM_HOLD_CYCLES (a store
 * buffer that drains late), then land one a cycle again. */
int sm_model_lock_early(struct sm_model *m)
{
	const unsigned lock = offsetof(page_t, lock);

	if (!sm_model_pending(m))
		return 0;
	int ev = queued(m, 0)->ev;
	for (unsigned k = 0; k < sm_model_pending(m);) {
		struct sm_store *s = queued(m, k);
		if (s->ev != ev || s->off != lock) {
			k++;
			continue;
		}
		bool closing = !(s->val & 1);
		apply_store(m, s);
		unqueue(m, k);
		if (closing) {
			m->sb.frozen_until = m->k.now + SM_HOLD_CYCLES;
			return 1;
		}
	}
	return 0;
}

/* Every store in flight lands, in sm_store_land()'s order: the backlog,
 * then the last update's. */
void sm_model_flush(struct sm_model *m)
{
	land_backlog(m);
	while (m->sb.pending_next < m->sb.npending)
		apply_store(m, &m->sb.pending[m->sb.pending_next++]);
	m->sb.frozen_until = 0;
}

void sm_model_page_after(const struct sm_model *m, int ev, page_t *out)
{
	shadow_of(m, ev, out);
}
