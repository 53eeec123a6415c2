/*
 * userpage.c — what one write of the control page stores, in order.
 *
 * Owns: perf_event_init_userpage(), and perf_event_update_userpage() with
 * the arch parts arch_perf_update_userpage() of x86-64 and arm64/riscv64,
 * as a list of stores in kernel program order.  It is pure: the values
 * come from kernel.c (struct sm_page_values), the page as the stores in
 * flight leave it from the caller, and the list goes back to the caller
 * (kernel.c hands it to the store buffer, stores.c).  It must not read or
 * change the model's state.
 */
#include <string.h>

#include "userpage.h"

typedef struct perf_event_mmap_page page_t;

struct writer {
	int ev;
	page_t shadow;       /* the page as the stores so far leave it */
	struct sm_store *out;
	unsigned n;
};

static void put(struct writer *w, size_t off, size_t size, uint64_t v)
{
	struct sm_store *s = &w->out[w->n++];

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
static void x86_arch_part(struct writer *w, const struct sm_page_values *v)
{
	put_cap(w, SELFMON_CAP_USER_TIME, false);
	put_cap(w, SELFMON_CAP_USER_TIME_ZERO, false);
	put_cap(w, SELFMON_CAP_USER_RDPMC, v->cap_rdpmc);
	PUT(w, pmc_width, v->pmc_width);
	if (!v->time) /* !using_native_sched_clock() || !stable */
		return;
	put_cap(w, SELFMON_CAP_USER_TIME, true);
	PUT(w, time_mult, v->mult);
	PUT(w, time_shift, v->shift);
	PUT(w, time_offset, v->offset_ns - v->now_ns);
	if (v->time_zero) {
		put_cap(w, SELFMON_CAP_USER_TIME_ZERO, true);
		PUT(w, time_zero, v->offset_ns);
	}
}

/* drivers/perf/arm_pmuv3.c arch_perf_update_userpage(), and the
 * same function in drivers/perf/riscv_pmu.c: sched_clock's epoch and
 * mask, time_zero made relative to cycle 0, the shift clamped to 31 only
 * here, after time_zero was computed with the unclamped one. */
static void timer_arch_part(struct writer *w, const struct sm_page_values *v)
{
	put_cap(w, SELFMON_CAP_USER_TIME, false);
	put_cap(w, SELFMON_CAP_USER_TIME_ZERO, false);
	put_cap(w, SELFMON_CAP_USER_TIME_SHORT, false);
	put_cap(w, SELFMON_CAP_USER_RDPMC, v->cap_rdpmc);
	if (v->cap_rdpmc)
		PUT(w, pmc_width, v->pmc_width);
	if (!v->time) /* rd->read_sched_clock != arch timer */
		return;
	PUT(w, time_mult, v->mult);
	PUT(w, time_shift, v->shift);
	PUT(w, time_zero, v->epoch_ns);
	PUT(w, time_cycles, v->epoch_cyc);
	PUT(w, time_mask, v->time_mask);
	PUT(w, time_zero,
	    v->epoch_ns - sm_mul_u64_u32_shr(v->epoch_cyc, v->mult, v->shift));
	PUT(w, time_offset, w->shadow.time_zero - v->now_ns);
	if (w->shadow.time_shift == 32) {
		PUT(w, time_shift, 31);
		PUT(w, time_mult, w->shadow.time_mult >> 1);
	}
	put_cap(w, SELFMON_CAP_USER_TIME, true);
	put_cap(w, SELFMON_CAP_USER_TIME_ZERO, true);
	put_cap(w, SELFMON_CAP_USER_TIME_SHORT, true);
}

/* perf_event_init_userpage(): written at mmap before user space can see
 * the page; one mmapped page, no data pages. */
void sm_page_init(union sm_page_mem *p)
{
	memset(p->bytes, 0, SELFMON_PAGE_SIZE);
	p->pc.capabilities = 1ull << SELFMON_CAP_BIT0_IS_DEPRECATED;
	p->pc.size = SELFMON_PAGE_SIZE_FIELD;
	p->pc.data_offset = SELFMON_PAGE_SIZE;
	p->pc.data_size = 0;
}

/* kernel/events/core.c perf_event_update_userpage(): lock++, index,
 * offset = count (then -= prev_count when index != 0), times as of now,
 * the arch part, lock++. */
unsigned sm_page_stores(enum sm_arch arch, int ev, const page_t *shadow,
                        const struct sm_page_values *v,
                        struct sm_store out[SM_MAX_STORES])
{
	struct writer w = { .ev = ev, .shadow = *shadow, .out = out };

	PUT(&w, lock, w.shadow.lock + 1);
	PUT(&w, index, v->index);
	PUT(&w, offset, v->count);
	if (v->index)
		PUT(&w, offset, v->count - v->prev_count);
	PUT(&w, time_enabled, v->enabled);
	PUT(&w, time_running, v->running);
	if (arch == SM_X86_64)
		x86_arch_part(&w, v);
	else
		timer_arch_part(&w, v);
	PUT(&w, lock, w.shadow.lock + 1);
	return w.n;
}
