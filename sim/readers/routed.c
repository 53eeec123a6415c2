/*
 * routed.c — the primitives of the built-in readers' routed build
 * (reader/prims.h, SELFMON_PRIMS_ROUTED): each forwards to the native
 * engine's, with the reader's own return address for the listing.
 *
 * Owns only the forwarding, so that the readers' layer needs nothing
 * above it: the native engine (sim/engine/engine_native.c) binds its
 * primitives with sm_routed_bind() before it calls a reader.
 */
#include <stddef.h>

#include "reader.h"

static const struct sm_routed *routed;

void sm_routed_bind(const struct sm_routed *r)
{
	routed = r;
}

uint64_t selfmon_routed_rdpmc(uint32_t counter);
uint64_t selfmon_routed_rdtsc(void);
long selfmon_routed_read(int fd, void *buf, size_t n);

uint64_t selfmon_routed_rdpmc(uint32_t counter)
{
	return routed->rdpmc(counter, __builtin_return_address(0));
}

uint64_t selfmon_routed_rdtsc(void)
{
	return routed->rdtsc(__builtin_return_address(0));
}

long selfmon_routed_read(int fd, void *buf, size_t n)
{
	return routed->read(fd, buf, n, __builtin_return_address(0));
}
