/* host_layout.h — see host_layout.c. */
#ifndef SELFMON_TEST_HOST_LAYOUT_H
#define SELFMON_TEST_HOST_LAYOUT_H
#include <stddef.h>

struct host_field {
	const char *name;
	size_t off, size;
};
extern const struct host_field host_fields[];
extern const unsigned host_nfields; /* 0: no host header */
extern const size_t host_struct_size;
int host_cap_bit(const char *name);
#endif
