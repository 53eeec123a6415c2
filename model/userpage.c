/*
 * userpage.c — writing the control page, store by store.
 *
 * Owns: perf_event_init_userpage(), perf_event_update_userpage() and the
 * arch parts arch_perf_update_userpage() of x86-64 and arm64/riscv64, as a
 * list of stores in kernel program order; the local writer (all stores land
 * at once, between two reader instructions) and the remote writer (each
 * store is a separate step a reader on another CPU can see, the updates
 * of one action one after the other: a sched in writes the page two or
 * three times, and such a reader can see any prefix of all of them; on
 * arm64 and riscv64 also the closing ++lock before the fields,
 * sm_model_lock_early()).  It decides no kernel state: values come from
 * kernel.c and clock.c.
 */
#include <string.h>

#include "internal.h"

typedef struct perf_event_mmap_page page_t;

struct writer {
	struct sm_model *m;
	int ev;
	page_t shadow;       /* the page as the stores so far leave it */
	unsigned n;
};

static void put(struct writer *w, size_t off, size_t size, uint64_t v)
{
	struct sm_store *s = &w->m->pending[w->n++];

	s->off = (uint16_t)off;
	s->size = (uint8_t)size;
	s->ev = (int8_t)w->ev;
	s->val = v;
	memcpy((uint8_t *)&w->shadow + off, &v, size); /* little endian */
}

#define PUT(w, field, v)                                                       \
	put((w), offsetof(page_t, field), sizeof(((page_t *)0)->field),        \
	    (uint64_t)(v))

/* A bitfield assignment is a read-modify-write of the whole word. */
static void put_cap(struct writer *w, unsigned bit, bool on)
{
	uint64_t cap = w->shadow.capabilities & ~(1ull << bit);
	PUT(w, capabilities, cap | ((uint64_t)on << bit));
}

/* arch/x86/events/core.c arch_perf_update_userpage() */
static void x86_arch_part(struct writer *w, const struct sm_event *e,
                          uint64_t now_ns)
{
	const struct sm_model *m = w->m;
	const struct sm_cpu *c = &m->cpu[m->task_cpu];

	put_cap(w, SELFMON_CAP_USER_TIME, false);
	put_cap(w, SELFMON_CAP_USER_TIME_ZERO, false);
	put_cap(w, SELFMON_CAP_USER_RDPMC,
	        sm_pmu[m->cfg.arch].cap_rdpmc(&m->cfg, e));
	PUT(w, pmc_width, sm_pmu[m->cfg.arch].pmc_width(&m->cfg, e));
	if (!m->cfg.stable) /* !using_native_sched_clock() || !stable */
		return;
	put_cap(w, SELFMON_CAP_USER_TIME, true);
	PUT(w, time_mult, c->mult);
	PUT(w, time_shift, c->shift);
	PUT(w, time_offset, c->offset_ns - now_ns);
	if (!e->cfg.clockid) {
		put_cap(w, SELFMON_CAP_USER_TIME_ZERO, true);
		PUT(w, time_zero, c->offset_ns);
	}
}

/* drivers/perf/arm_pmuv3.c arch_perf_update_userpage(), and the
 * same function in drivers/perf/riscv_pmu.c: sched_clock's epoch and
 * mask, time_zero made relative to cycle 0, the shift clamped to 31 only
 * here, after time_zero was computed with the unclamped one. */
static void timer_arch_part(struct writer *w, const struct sm_event *e,
                            uint64_t now_ns)
{
	const struct sm_model *m = w->m;
	const struct sm_cpu *c = &m->cpu[m->task_cpu];
	const struct sm_pmu_rules *r = &sm_pmu[m->cfg.arch];
	bool rdpmc = r->cap_rdpmc(&m->cfg, e);

	put_cap(w, SELFMON_CAP_USER_TIME, false);
	put_cap(w, SELFMON_CAP_USER_TIME_ZERO, false);
	put_cap(w, SELFMON_CAP_USER_TIME_SHORT, false);
	put_cap(w, SELFMON_CAP_USER_RDPMC, rdpmc);
	if (rdpmc)
		PUT(w, pmc_width, r->pmc_width(&m->cfg, e));
	if (!m->cfg.stable) /* rd->read_sched_clock != arch timer */
		return;
	PUT(w, time_mult, c->mult);
	PUT(w, time_shift, c->shift);
	PUT(w, time_zero, c->epoch_ns);
	PUT(w, time_cycles, c->epoch_cyc);
	PUT(w, time_mask, sm_timer_mask(m));
	PUT(w, time_zero,
	    c->epoch_ns - sm_mul_u64_u32_shr(c->epoch_cyc, c->mult, c->shift));
	PUT(w, time_offset, w->shadow.time_zero - now_ns);
	if (w->shadow.time_shift == 32) {
		PUT(w, time_shift, 31);
		PUT(w, time_mult, w->shadow.time_mult >> 1);
	}
	put_cap(w, SELFMON_CAP_USER_TIME, true);
	put_cap(w, SELFMON_CAP_USER_TIME_ZERO, true);
	put_cap(w, SELFMON_CAP_USER_TIME_SHORT, true);
}

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
	while (m->backlog_next < m->nbacklog)
		apply_store(m, &m->backlog[m->backlog_next++]);
	m->nbacklog = m->backlog_next = 0;
}

/* A new update of the same action: what is left of the last one joins
 * the backlog and lands before it (all of it now if there is no room:
 * that is a reader that did not look in the meantime). */
static void queue_pending(struct sm_model *m)
{
	unsigned left = m->npending - m->pending_next;

	if (m->nbacklog + left > SM_MAX_BACKLOG)
		land_backlog(m);
	memcpy(&m->backlog[m->nbacklog], &m->pending[m->pending_next],
	       left * sizeof(m->pending[0]));
	m->nbacklog += left;
	m->npending = m->pending_next = 0;
}

/* The page as it is, and as a pending store would leave it. */
static void shadow_of(const struct sm_model *m, int ev, page_t *out)
{
	*out = m->page[ev].pc;
	for (unsigned k = m->backlog_next; k < m->nbacklog; k++)
		if (m->backlog[k].ev == ev)
			memcpy((uint8_t *)out + m->backlog[k].off,
			       &m->backlog[k].val, m->backlog[k].size);
	for (unsigned k = m->pending_next; k < m->npending; k++)
		if (m->pending[k].ev == ev)
			memcpy((uint8_t *)out + m->pending[k].off,
			       &m->pending[k].val, m->pending[k].size);
}

/* perf_event_init_userpage(): written at mmap before user space can see
 * the page; one mmapped page, no data pages. */
void sm_page_init(struct sm_model *m, int ev)
{
	page_t *pc = &m->page[ev].pc;

	memset(m->page[ev].bytes, 0, SELFMON_PAGE_SIZE);
	pc->capabilities = 1ull << SELFMON_CAP_BIT0_IS_DEPRECATED;
	pc->size = SELFMON_PAGE_SIZE_FIELD;
	pc->data_offset = SELFMON_PAGE_SIZE;
	pc->data_size = 0;
}

/* kernel/events/core.c perf_event_update_userpage(): lock++, index,
 * offset = count (then -= prev_count when index != 0), times as of now,
 * the arch part, lock++. */
void sm_page_update(struct sm_model *m, int ev)
{
	const struct sm_event *e = &m->ev[ev];
	struct writer w = { .m = m, .ev = ev };
	uint64_t enabled, running;

	if (!e->mapped)
		return;
	queue_pending(m);
	shadow_of(m, ev, &w.shadow); /* the stores build on those in flight */
	uint64_t now_ns = sm_model_ns(m, m->task_cpu, m->now);
	sm_event_times(m, e, &enabled, &running);
	uint32_t index = sm_event_index(m, e);

	PUT(&w, lock, w.shadow.lock + 1);
	PUT(&w, index, index);
	PUT(&w, offset, e->count);
	if (index)
		PUT(&w, offset, e->count - e->prev_count);
	PUT(&w, time_enabled, enabled);
	PUT(&w, time_running, running);
	if (m->cfg.arch == SM_X86_64)
		x86_arch_part(&w, e, now_ns);
	else
		timer_arch_part(&w, e, now_ns);
	PUT(&w, lock, w.shadow.lock + 1);

	m->npending = w.n;
	m->pending_next = 0;
	m->pending_event = ev;
	m->updates++;
	if (m->cfg.writer == SM_WRITER_LOCAL)
		sm_model_flush(m);
	if (m->observe)
		m->observe(m->observe_ctx, m, ev, m->cause);
}

unsigned sm_model_pending(const struct sm_model *m)
{
	return m->nbacklog - m->backlog_next + m->npending - m->pending_next;
}

static const struct sm_store *next_store(const struct sm_model *m)
{
	if (m->backlog_next < m->nbacklog)
		return &m->backlog[m->backlog_next];
	return m->pending_next < m->npending ? &m->pending[m->pending_next]
	                                     : NULL;
}

int sm_model_next_store(const struct sm_model *m)
{
	if (m->now < m->frozen_until)
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
	if (m->backlog_next < m->nbacklog) {
		if (++m->backlog_next == m->nbacklog)
			m->nbacklog = m->backlog_next = 0;
	} else {
		m->pending_next++;
	}
	return s->off;
}

int sm_model_store_step(struct sm_model *m)
{
	return m->now < m->frozen_until ? -1 : sm_store_land(m);
}

/* The k-th store in flight (backlog first), and taking it out. */
static struct sm_store *queued(struct sm_model *m, unsigned k)
{
	unsigned b = m->nbacklog - m->backlog_next;

	return k < b ? &m->backlog[m->backlog_next + k]
	             : &m->pending[m->pending_next + k - b];
}

static void unqueue(struct sm_model *m, unsigned k)
{
	unsigned b = m->nbacklog - m->backlog_next;
	struct sm_store *q = k < b ? &m->backlog[m->backlog_next + k]
	                           : &m->pending[m->pending_next + k - b];
	struct sm_store *end = k < b ? &m->backlog[m->nbacklog]
	                             : &m->pending[m->npending];

	memmove(q, q + 1, (size_t)(end - q - 1) * sizeof(*q));
	if (k < b)
		m->nbacklog--;
	else
		m->npending--;
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
			m->frozen_until = m->now + SM_HOLD_CYCLES;
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
	while (m->pending_next < m->npending)
		apply_store(m, &m->pending[m->pending_next++]);
	m->frozen_until = 0;
}

void sm_model_page_after(const struct sm_model *m, int ev, page_t *out)
{
	shadow_of(m, ev, out);
}
