/*
 * page.c — the page's field table.
 *
 * Owns: selfmon_page_fields[], the ABI names, offsets and sizes of the
 * fields of struct perf_event_mmap_page (docs/abi.md §1), and lookups on it.
 * It must not write pages.
 */
#include <string.h>

#include "page.h"

#define F(name, sgn)                                                           \
	{ #name, offsetof(struct perf_event_mmap_page, name),                  \
	  sizeof(((struct perf_event_mmap_page *)0)->name), sgn }

const struct selfmon_page_field selfmon_page_fields[] = {
	F(version, 0),      F(compat_version, 0), F(lock, 0),
	F(index, 0),        F(offset, 1),         F(time_enabled, 0),
	F(time_running, 0), F(capabilities, 0),   F(pmc_width, 0),
	F(time_shift, 0),   F(time_mult, 0),      F(time_offset, 0),
	F(time_zero, 0),    F(size, 0),           F(__reserved_1, 0),
	F(time_cycles, 0),  F(time_mask, 0),      F(data_head, 0),
	F(data_tail, 0),    F(data_offset, 0),    F(data_size, 0),
	F(aux_head, 0),     F(aux_tail, 0),       F(aux_offset, 0),
	F(aux_size, 0),
};
const unsigned selfmon_npage_fields =
	sizeof(selfmon_page_fields) / sizeof(selfmon_page_fields[0]);

const struct selfmon_page_field *selfmon_page_field_at(unsigned off)
{
	for (unsigned i = 0; i < selfmon_npage_fields; i++) {
		const struct selfmon_page_field *f = &selfmon_page_fields[i];
		if (off >= f->off && off < f->off + f->size)
			return f;
	}
	return NULL;
}

uint64_t selfmon_page_get(const struct perf_event_mmap_page *pc,
                          const struct selfmon_page_field *f)
{
	uint64_t v = 0;

	memcpy(&v, (const uint8_t *)pc + f->off, f->size); /* little endian */
	if (f->is_signed && f->size < 8 && (v >> (8 * f->size - 1)) & 1)
		v |= ~0ull << (8 * f->size);
	return v;
}
