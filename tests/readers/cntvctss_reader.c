/*
 * cntvctss_reader.c — an arm64 reader for test_trust: the timer through
 * CNTVCTSS_EL0 (ARMv8.6, self-synchronised), which Unicorn 2.0.1's CPU
 * lacks.  Returns the timer value as the "count" (raw ABI): only whether
 * selfmon answers it matters.
 */
#include <stdint.h>

uint64_t ss_read(const void *page)
{
	uint64_t v;
	(void)page;
	__asm__ __volatile__("mrs %0, s3_3_c14_c0_6" : "=r"(v));
	return v;
}
