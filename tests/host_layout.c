/*
 * host_layout.c — offsets and sizes of the host's struct
 * perf_event_mmap_page, compiled apart from model/page.h so that
 * test_page.c can compare the two definitions field by field.
 */
#include <stddef.h>
#include <string.h>

#include "host_layout.h"

#if __has_include(<linux/perf_event.h>)
#include <linux/perf_event.h>

#define H(f)                                                                   \
	{ #f, offsetof(struct perf_event_mmap_page, f),                        \
	  sizeof(((struct perf_event_mmap_page *)0)->f) }

const struct host_field host_fields[] = {
	H(version),      H(compat_version), H(lock),         H(index),
	H(offset),       H(time_enabled),   H(time_running), H(capabilities),
	H(pmc_width),    H(time_shift),     H(time_mult),    H(time_offset),
	H(time_zero),    H(size),           H(__reserved_1), H(time_cycles),
	H(time_mask),    H(__reserved),     H(data_head),    H(data_tail),
	H(data_offset),  H(data_size),      H(aux_head),     H(aux_tail),
	H(aux_offset),   H(aux_size),
};
const unsigned host_nfields = sizeof(host_fields) / sizeof(host_fields[0]);
const size_t host_struct_size = sizeof(struct perf_event_mmap_page);

/* The capability bitfields cannot be offsetof'ed: find each bit by
 * setting it in a zeroed page and looking at the capabilities word. */
int host_cap_bit(const char *name)
{
	struct perf_event_mmap_page pc;
	memset(&pc, 0, sizeof(pc));
	if (!strcmp(name, "cap_bit0")) pc.cap_bit0 = 1;
	else if (!strcmp(name, "cap_bit0_is_deprecated")) pc.cap_bit0_is_deprecated = 1;
	else if (!strcmp(name, "cap_user_rdpmc")) pc.cap_user_rdpmc = 1;
	else if (!strcmp(name, "cap_user_time")) pc.cap_user_time = 1;
	else if (!strcmp(name, "cap_user_time_zero")) pc.cap_user_time_zero = 1;
	else if (!strcmp(name, "cap_user_time_short")) pc.cap_user_time_short = 1;
	else return -1;
	return __builtin_ctzll(pc.capabilities);
}
#else
const struct host_field host_fields[1];
const unsigned host_nfields = 0;
const size_t host_struct_size = 0;
int host_cap_bit(const char *name) { (void)name; return -1; }
#endif
