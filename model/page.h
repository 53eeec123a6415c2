/*
 * page.h — the perf_event control page ("user page"), byte-exact.
 *
 * Owns: the project's own definition of struct perf_event_mmap_page with the
 * uapi field names, the capability bit numbers, and a static assertion for
 * every offset (docs/abi.md §1).  It must not depend on the host's
 * <linux/perf_event.h>; tests/test_page.c compares the two where the host
 * header exists.  If a translation unit has already included the host
 * header, the host's definition is used and the same assertions check it.
 */
#ifndef SELFMON_PAGE_H
#define SELFMON_PAGE_H

#include <stddef.h>
#include <stdint.h>

#define SELFMON_PAGE_SIZE 4096u
#define SELFMON_PAGE_HEADER 1024u /* bytes up to data_head */

/* Bit numbers inside `capabilities`. */
enum {
	SELFMON_CAP_BIT0 = 0,                /* always 0 (deprecated) */
	SELFMON_CAP_BIT0_IS_DEPRECATED = 1,  /* always 1 */
	SELFMON_CAP_USER_RDPMC = 2,
	SELFMON_CAP_USER_TIME = 3,
	SELFMON_CAP_USER_TIME_ZERO = 4,
	SELFMON_CAP_USER_TIME_SHORT = 5,
};

#if !defined(_UAPI_LINUX_PERF_EVENT_H) && !defined(_LINUX_PERF_EVENT_H)
struct perf_event_mmap_page {
	uint32_t version;
	uint32_t compat_version;
	uint32_t lock;
	uint32_t index;
	int64_t offset;
	uint64_t time_enabled;
	uint64_t time_running;
	union {
		uint64_t capabilities;
		struct {
			uint64_t cap_bit0 : 1,
			    cap_bit0_is_deprecated : 1,
			    cap_user_rdpmc : 1,
			    cap_user_time : 1,
			    cap_user_time_zero : 1,
			    cap_user_time_short : 1,
			    cap_____res : 58;
		};
	};
	uint16_t pmc_width;
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_offset;
	uint64_t time_zero;
	uint32_t size;
	uint32_t __reserved_1;
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t __reserved[116 * 8];
	uint64_t data_head;
	uint64_t data_tail;
	uint64_t data_offset;
	uint64_t data_size;
	uint64_t aux_head;
	uint64_t aux_tail;
	uint64_t aux_offset;
	uint64_t aux_size;
};
#endif

/* C11's _Static_assert is static_assert in C++ (a C++ reader may include
 * this header: docs/check-your-reader.md). */
#ifdef __cplusplus
#define SELFMON_STATIC_ASSERT static_assert
#else
#define SELFMON_STATIC_ASSERT _Static_assert
#endif

#define SELFMON_PAGE_ASSERT(f, off)                                            \
	SELFMON_STATIC_ASSERT(                                                 \
		offsetof(struct perf_event_mmap_page, f) == (off),             \
		"perf_event_mmap_page." #f " must be at " #off)
SELFMON_PAGE_ASSERT(version, 0);
SELFMON_PAGE_ASSERT(compat_version, 4);
SELFMON_PAGE_ASSERT(lock, 8);
SELFMON_PAGE_ASSERT(index, 12);
SELFMON_PAGE_ASSERT(offset, 16);
SELFMON_PAGE_ASSERT(time_enabled, 24);
SELFMON_PAGE_ASSERT(time_running, 32);
SELFMON_PAGE_ASSERT(capabilities, 40);
SELFMON_PAGE_ASSERT(pmc_width, 48);
SELFMON_PAGE_ASSERT(time_shift, 50);
SELFMON_PAGE_ASSERT(time_mult, 52);
SELFMON_PAGE_ASSERT(time_offset, 56);
SELFMON_PAGE_ASSERT(time_zero, 64);
SELFMON_PAGE_ASSERT(size, 72);
SELFMON_PAGE_ASSERT(__reserved_1, 76);
SELFMON_PAGE_ASSERT(time_cycles, 80);
SELFMON_PAGE_ASSERT(time_mask, 88);
SELFMON_PAGE_ASSERT(__reserved, 96);
SELFMON_PAGE_ASSERT(data_head, 1024);
SELFMON_PAGE_ASSERT(data_tail, 1032);
SELFMON_PAGE_ASSERT(data_offset, 1040);
SELFMON_PAGE_ASSERT(data_size, 1048);
SELFMON_PAGE_ASSERT(aux_head, 1056);
SELFMON_PAGE_ASSERT(aux_tail, 1064);
SELFMON_PAGE_ASSERT(aux_offset, 1072);
SELFMON_PAGE_ASSERT(aux_size, 1080);
SELFMON_STATIC_ASSERT(offsetof(struct perf_event_mmap_page, data_head) ==
                          SELFMON_PAGE_HEADER,
                      "the header is 1024 bytes");
SELFMON_STATIC_ASSERT(sizeof(struct perf_event_mmap_page) == 1088,
                      "struct ends after aux_size");

/* The value the kernel stores in `size`: bytes up to __reserved. */
#define SELFMON_PAGE_SIZE_FIELD                                                \
	((uint32_t)offsetof(struct perf_event_mmap_page, __reserved))

/* The page's fields by ABI name, in offset order (model/page.c): used to
 * print pages and to name the field a store or a reader load touches. */
struct selfmon_page_field {
	const char *name;
	uint16_t off;
	uint8_t size;
	uint8_t is_signed;
};
extern const struct selfmon_page_field selfmon_page_fields[];
extern const unsigned selfmon_npage_fields;
/* The field containing byte `off`, or NULL (reserved bytes). */
const struct selfmon_page_field *selfmon_page_field_at(unsigned off);
/* Value of a field in a page (sign-extended when signed). */
uint64_t selfmon_page_get(const struct perf_event_mmap_page *pc,
                          const struct selfmon_page_field *f);

#endif
