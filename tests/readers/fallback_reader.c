/*
 * fallback_reader.c — values-ABI readers for test_cpath that take, or
 * seem to take, the read(2) path: whether a verdict judged the counter
 * path (session.h's criterion: a counter read, no read(2) of the event
 * after the last one, rc 0).  Counter access and read(2) come from
 * tests/elf/good_reader.c, whose reader is here too as fallback_good.
 *
 *   fallback_read      read(2) only, rc 1: right in every schedule, and
 *                      never on the counter path
 *   fallback_stub      returns -1 at once, as one PAPI version's arm64
 *                      "reader" does: the same failure in every cell
 *   counter_then_read  reads the counter, then read(2), rc 0: a read(2)
 *                      after the last counter read, so never the path
 *   plus_one           read(2), the count one too high, rc 1: a failure
 *                      whose numbers differ from cell to cell
 */
#define READER_ENTRY fallback_good
#include "../elf/good_reader.c"

int fallback_read(const void *page, int fd, struct values *out)
{
	(void)page;
	return from_read(fd, out);
}

int fallback_stub(const void *page, int fd, struct values *out)
{
	(void)page;
	(void)fd;
	(void)out;
	return -1;
}

int counter_then_read(const void *page, int fd, struct values *out)
{
	const struct perf_event_mmap_page *pc = page;
	uint32_t idx = READ_ONCE(pc->index);
	volatile uint64_t raw = idx ? read_counter(idx - 1) : 0;

	(void)raw;
	return from_read(fd, out) < 0 ? -1 : 0;
}

int plus_one(const void *page, int fd, struct values *out)
{
	(void)page;
	int rc = from_read(fd, out);

	out->count++;
	return rc;
}
