/*
 * spin_reader.c — a reader for test_trust that loops on one instruction
 * forever without looking at the page: the reader's LIVELOCK, never
 * selfmon's own error.  Raw ABI.
 */
#include <stdint.h>

uint64_t spin_read(const void *page)
{
	(void)page;
	for (;;)
		__asm__ __volatile__("");
}
