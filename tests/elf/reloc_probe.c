/*
 * reloc_probe.c — not a reader: code that needs many kinds of relocation
 * (calls to imports, tables of function and string pointers, jump tables,
 * globals through the GOT, .rodata/.data/.bss, a COMMON symbol, a weak
 * undefined symbol), for tests/test_elf.c to load with every toolchain
 * and run in Unicorn.
 *
 *   uint64_t probe(int fd);
 *
 * returns 0 when everything it checked was right, else the number of the
 * first check that failed.  It expects read(fd, buf, 24) to return 24 with
 * the values 111, 222, 333, and working memcpy and memset.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static uint64_t add1(uint64_t x) { return x + 1; }
static uint64_t dbl(uint64_t x) { return 2 * x; }
static uint64_t sq(uint64_t x) { return x * x; }
static uint64_t neg(uint64_t x) { return -x; }

static uint64_t (*const table[])(uint64_t) = { add1, dbl, sq, neg };
static const char *const names[] = { "alpha", "beta", "gamma" };
static const uint64_t primes[8] = { 2, 3, 5, 7, 11, 13, 17, 19 };
static const unsigned __int128 wide =
	((unsigned __int128)0x0123456789abcdefull << 64) | 0xfedcba9876543210ull;

uint64_t (*hook)(uint64_t) = sq;  /* writable, global: GOT when PIC */
uint64_t counter_g = 5;           /* global data, a data object */
int common_var __attribute__((common));
static uint64_t bss_arr[16];
static uint8_t scratch[64];
extern int missing_weak(void) __attribute__((weak));

volatile int vindex = 2;
volatile size_t vsize = 40;

__attribute__((noinline)) static uint64_t sw(int k, uint64_t x)
{
	switch (k) {
	case 0: return x * 3;
	case 1: return x + 7;
	case 2: return x ^ 0x55;
	case 3: return x << 2;
	case 4: return x - 9;
	case 5: return x | 0x100;
	case 6: return x * x + 1;
	case 7: return x / 3;
	default: return 0;
	}
}

static int check_read(int fd)
{
	uint64_t buf[3] = { 0, 0, 0 };

	if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return 1;
	return buf[0] == 111 && buf[1] == 222 && buf[2] == 333 ? 0 : 2;
}

static int check_tables(void)
{
	int i = vindex;
	uint64_t s = 0;

	if (table[i](9) != 81 || table[i - 2](9) != 10 || table[3](1) != ~0ull)
		return 3;
	if (hook(7) != 49)
		return 4;
	hook = dbl;
	if (hook(7) != 14)
		return 5;
	if (names[i][2] != 'm' || names[i - 1][0] != 'b' || names[0][4] != 'a')
		return 6;
	if (primes[i + 5] != 19 || primes[i] != 5)
		return 7;
	if ((uint64_t)(wide >> 64) != 0x0123456789abcdefull ||
	    (uint64_t)wide != 0xfedcba9876543210ull)
		return 8;
	for (int k = 0; k < 8; k++)
		s += sw(k + i - 2, 10);
	return s == 30 + 17 + (10 ^ 0x55) + 40 + 1 + (0x100 | 10) + 101 + 3
	       ? 0 : 9;
}

static int check_data(void)
{
	size_t n = vsize;

	if (counter_g != 5 || common_var != 0)
		return 10;
	counter_g++;
	common_var = 42;
	if (counter_g != 6 || common_var != 42)
		return 11;
	for (int k = 0; k < 16; k++)
		if (bss_arr[k])
			return 12;
	memset(scratch, 0x5a, n);
	if (scratch[0] != 0x5a || scratch[n - 1] != 0x5a || scratch[n] != 0)
		return 13;
	memcpy(bss_arr, primes, n);
	if (bss_arr[4] != 11 || bss_arr[5] != 0)
		return 14;
	if (missing_weak)
		return 15;
	return 0;
}

uint64_t probe(int fd)
{
	int r;

	if ((r = check_read(fd)) || (r = check_tables()) || (r = check_data()))
		return (uint64_t)r;
	return 0;
}
