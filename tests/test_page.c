/*
 * test_page.c — the project's struct perf_event_mmap_page against docs/abi.md
 * §1 and against the host's <linux/perf_event.h> where it exists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "host_layout.h"
#include "page.h"

/* docs/abi.md §1, written out. */
static const struct { const char *name; unsigned off, size; } design[] = {
	{ "version", 0, 4 },        { "compat_version", 4, 4 },
	{ "lock", 8, 4 },           { "index", 12, 4 },
	{ "offset", 16, 8 },        { "time_enabled", 24, 8 },
	{ "time_running", 32, 8 },  { "capabilities", 40, 8 },
	{ "pmc_width", 48, 2 },     { "time_shift", 50, 2 },
	{ "time_mult", 52, 4 },     { "time_offset", 56, 8 },
	{ "time_zero", 64, 8 },     { "size", 72, 4 },
	{ "__reserved_1", 76, 4 },  { "time_cycles", 80, 8 },
	{ "time_mask", 88, 8 },     { "data_head", 1024, 8 },
};

static void test_design_offsets(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(design) / sizeof(design[0]); i++) {
		const struct selfmon_page_field *f =
			selfmon_page_field_at(design[i].off);
		assert_non_null(f);
		assert_string_equal(f->name, design[i].name);
		assert_int_equal(f->off, design[i].off);
		assert_int_equal(f->size, design[i].size);
	}
	assert_int_equal(SELFMON_PAGE_SIZE_FIELD, 96);
	assert_null(selfmon_page_field_at(100)); /* __reserved */
}

static void test_cap_bits(void **state)
{
	struct perf_event_mmap_page pc;
	(void)state;
	memset(&pc, 0, sizeof(pc));
	pc.cap_bit0_is_deprecated = 1;
	assert_int_equal(pc.capabilities, 1u << 1);
	pc.capabilities = 0;
	pc.cap_user_rdpmc = 1;
	assert_int_equal(pc.capabilities, 1u << 2);
	pc.capabilities = 0;
	pc.cap_user_time = 1;
	assert_int_equal(pc.capabilities, 1u << 3);
	pc.capabilities = 0;
	pc.cap_user_time_zero = 1;
	assert_int_equal(pc.capabilities, 1u << 4);
	pc.capabilities = 0;
	pc.cap_user_time_short = 1;
	assert_int_equal(pc.capabilities, 1u << 5);
}

static void test_against_host_header(void **state)
{
	(void)state;
	if (host_nfields == 0)
		skip(); /* no <linux/perf_event.h> on this host */
	assert_int_equal(host_struct_size, sizeof(struct perf_event_mmap_page));
	for (unsigned i = 0; i < host_nfields; i++) {
		const struct host_field *h = &host_fields[i];
		if (!strcmp(h->name, "__reserved")) {
			assert_int_equal(h->off, offsetof(struct perf_event_mmap_page,
			                                  __reserved));
			assert_int_equal(h->size, 116 * 8);
			continue;
		}
		const struct selfmon_page_field *f = selfmon_page_field_at(h->off);
		assert_non_null(f);
		assert_string_equal(f->name, h->name);
		assert_int_equal(f->off, h->off);
		assert_int_equal(f->size, h->size);
	}
	assert_int_equal(host_cap_bit("cap_bit0"), SELFMON_CAP_BIT0);
	assert_int_equal(host_cap_bit("cap_bit0_is_deprecated"),
	                 SELFMON_CAP_BIT0_IS_DEPRECATED);
	assert_int_equal(host_cap_bit("cap_user_rdpmc"), SELFMON_CAP_USER_RDPMC);
	assert_int_equal(host_cap_bit("cap_user_time"), SELFMON_CAP_USER_TIME);
	assert_int_equal(host_cap_bit("cap_user_time_zero"),
	                 SELFMON_CAP_USER_TIME_ZERO);
	assert_int_equal(host_cap_bit("cap_user_time_short"),
	                 SELFMON_CAP_USER_TIME_SHORT);
}

static void test_signed_get(void **state)
{
	struct perf_event_mmap_page pc;
	(void)state;
	memset(&pc, 0, sizeof(pc));
	pc.offset = -5;
	assert_int_equal((int64_t)selfmon_page_get(&pc, selfmon_page_field_at(16)), -5);
	pc.time_shift = 31;
	assert_int_equal(selfmon_page_get(&pc, selfmon_page_field_at(50)), 31);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_design_offsets),
		cmocka_unit_test(test_cap_bits),
		cmocka_unit_test(test_against_host_header),
		cmocka_unit_test(test_signed_get),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
