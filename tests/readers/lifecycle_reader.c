/*
 * lifecycle_reader.c — readers with a lifecycle for test_lifecycle: the
 * two-call ABIs (reader/prims.h), each a first function at one instant
 * and a read at a later one on the same ctx (256 bytes of selfmon's,
 * zero at the first call).  Counter access and the correct values reader
 * are tests/elf/good_reader.c's.
 *
 * delta ABI:  void START(const void *page, int fd, void *ctx);
 *             uint64_t READ(const void *page, int fd, void *ctx);
 *   delta_start,delta_read  right: the whole count (the page's offset
 *                           plus the sign-extended counter, or read(2))
 *                           at each call, subtracted
 *   vpp_start,vpp_read      VPP's x86 path: the raw counter at the start
 *                           (its index taken once), the read's raw
 *                           counter minus it, masked to pmc_width; the
 *                           page's offset is never read, so a reload or
 *                           rotation between the calls (the counter
 *                           loaded afresh, or another event's) is missed
 *
 * reset ABI:  void RESET(const void *page, int fd, void *ctx);
 *             int READ(const void *page, int fd, void *ctx,
 *                      struct values *out);
 *   since_reset,since_read  right: count, enabled and running at the
 *                           reset recorded, subtracted at the read
 *   papi_reset,papi_read    a software reset in PAPI's manner
 *                           (PAPI_reset() records the counter, a later
 *                           read subtracts it): the reset records the
 *                           sign-extended counter, and the read returns
 *                           the counter's change since, or read(2)'s
 *                           count minus the one at the reset where the
 *                           event is off its counter.  Where the reset
 *                           found the event off its counter it records 0,
 *                           but the kernel loads the counter with its
 *                           reload value when the event is scheduled in
 *                           (2^width minus the period left, near
 *                           2^(width-1)): the read's count is then near
 *                           -2^(width-1), -2^47 on x86 and -2^31 on arm64.
 *                           (A reload between the two calls, an overflow
 *                           or a rotation, is missed too, as VPP's is.)
 */
#define READER_ENTRY lc_values
#include "../elf/good_reader.c"

#include <stdbool.h>

struct delta_ctx {
	uint64_t count, enabled, running;
	uint32_t idx;
	uint64_t pmc;
};

/* ---- delta: right ---------------------------------------------------- */

void delta_start(const void *page, int fd, void *ctx)
{
	struct delta_ctx *c = ctx;
	struct values v;

	lc_values(page, fd, &v);
	c->count = v.count;
}

uint64_t delta_read(const void *page, int fd, void *ctx)
{
	const struct delta_ctx *c = ctx;
	struct values v;

	lc_values(page, fd, &v);
	return v.count - c->count;
}

/* ---- delta: VPP's raw counter deltas --------------------------------- */

void vpp_start(const void *page, int fd, void *ctx)
{
	const struct perf_event_mmap_page *pc = page;
	struct delta_ctx *c = ctx;
	(void)fd;

	c->idx = READ_ONCE(pc->index);
	c->pmc = read_counter(c->idx - 1);
}

uint64_t vpp_read(const void *page, int fd, void *ctx)
{
	const struct perf_event_mmap_page *pc = page;
	const struct delta_ctx *c = ctx;
	unsigned width = READ_ONCE(pc->pmc_width);
	uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
	(void)fd;

	return (read_counter(c->idx - 1) - c->pmc) & mask;
}

/* ---- reset: right ---------------------------------------------------- */

void since_reset(const void *page, int fd, void *ctx)
{
	struct delta_ctx *c = ctx;
	struct values v;

	lc_values(page, fd, &v);
	c->count = v.count;
	c->enabled = v.enabled;
	c->running = v.running;
}

int since_read(const void *page, int fd, void *ctx, struct values *out)
{
	const struct delta_ctx *c = ctx;
	struct values v;
	int rc = lc_values(page, fd, &v);

	out->count = v.count - c->count;
	out->enabled = v.enabled - c->enabled;
	out->running = v.running - c->running;
	return rc;
}

/* ---- reset: PAPI's ---------------------------------------------------- */

/* The sign-extended counter, or false where the event is off its
 * counter (or the counter may not be read). */
static bool papi_counter(const void *page, uint64_t *pmc)
{
	const struct perf_event_mmap_page *pc = page;
	uint32_t seq, idx;
	uint64_t caps;

	do {
		seq = READ_ONCE(pc->lock);
		barrier();
		caps = READ_ONCE(pc->capabilities);
		idx = READ_ONCE(pc->index);
		if (!(caps & CAP(SELFMON_CAP_USER_RDPMC)) || !idx)
			return false;
		*pmc = counter_value(read_counter(idx - 1),
		                     READ_ONCE(pc->pmc_width));
		barrier();
	} while (READ_ONCE(pc->lock) != seq || (seq & 1));
	return true;
}

void papi_reset(const void *page, int fd, void *ctx)
{
	struct delta_ctx *c = ctx;

	since_reset(page, fd, ctx); /* count, enabled, running: right */
	if (!papi_counter(page, &c->pmc))
		c->pmc = 0; /* the bug: "off its counter, the counter is 0" */
}

int papi_read(const void *page, int fd, void *ctx, struct values *out)
{
	const struct delta_ctx *c = ctx;
	struct values v;
	uint64_t pmc;
	int rc = lc_values(page, fd, &v);

	if (papi_counter(page, &pmc)) {
		out->count = pmc - c->pmc;
		rc = 0;
	} else {
		out->count = v.count - c->count;
	}
	out->enabled = v.enabled - c->enabled;
	out->running = v.running - c->running;
	return rc;
}
