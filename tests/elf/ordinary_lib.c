/*
 * ordinary_lib.c — good_reader.c as a library's reader is built: an
 * ordinary shared object (gcc -O2 -fPIC -shared, with the C runtime's
 * start files), whose sign extension uses a table a constructor fills,
 * called through the library's own PLT, its implementation chosen by an
 * IFUNC resolver; the constructor asks libc (sysconf, getpid,
 * clock_gettime), and the build may add -fstack-protector-all.  For
 * tests/test_elf.c, on every arch.
 *
 *   int lib_read(const void *page, int fd, struct values *out);
 *       the values ABI, as good_read
 *   int lib_read_ifunc(...)   the same, through an IFUNC entry point
 *
 * -DLIB_BAD_TABLE: the constructor fills the table one bit short, so the
 * reader goes wrong only where the constructor's table is used (a check
 * that the table the reader used is the constructor's).
 */
#include <stdint.h>
#include <time.h>
#include <unistd.h>

uint64_t lib_extend(uint64_t raw, unsigned width);
#define READER_EXTEND lib_extend
#define READER_ENTRY lib_read
#include "good_reader.c"

/* high[w]: the bits above a w-bit counter */
static uint64_t high[65];
static long page_size;
static int loaded_by;
static int64_t loaded_at;

__attribute__((constructor)) static void fill_table(void)
{
	struct timespec ts = { 0, 0 };

	for (unsigned w = 0; w < 64; w++)
#ifdef LIB_BAD_TABLE
		high[w] = ~0ull << (w + 1 < 64 ? w + 1 : 63);
#else
		high[w] = ~0ull << w;
#endif
	high[64] = 0;
	page_size = sysconf(_SC_PAGESIZE);
	loaded_by = getpid();
	if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
		loaded_at = ts.tv_sec;
}

static uint64_t extend_table(uint64_t raw, unsigned width)
{
	if (width == 0 || width > 64 || page_size != 4096 || loaded_by <= 0 ||
	    loaded_at < 0)
		return 0; /* the constructor did not run: a wrong count */
	if (width < 64 && (raw >> (width - 1) & 1))
		return raw | high[width];
	return raw & ~high[width];
}

/* The implementation chosen at load time (ld.so runs the resolver). */
static uint64_t (*pick_extend(void))(uint64_t, unsigned)
{
	return extend_table;
}
uint64_t lib_extend(uint64_t raw, unsigned width)
	__attribute__((ifunc("pick_extend")));

static int (*pick_read(void))(const void *, int, struct values *)
{
	return lib_read;
}
int lib_read_ifunc(const void *page, int fd, struct values *out)
	__attribute__((ifunc("pick_read")));
