/*
 * sha256.c — SHA-256 as FIPS 180-4 defines it (see sha256.h): the
 * padding of section 5.1.1, the message schedule and the 64 rounds of
 * section 6.2.2, the constants of section 4.2.2 and the initial value of
 * section 5.3.3.  One pass over data in memory; no streaming interface
 * (the files hashed are read whole anyway, input.c).
 */
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "sha256.h"

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

/* One 64-byte block into the state h. */
static void block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], v[8];

	for (unsigned t = 0; t < 16; t++)
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
		       (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
	for (unsigned t = 16; t < 64; t++) {
		uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	memcpy(v, h, sizeof(v));
	for (unsigned t = 0; t < 64; t++) {
		/* v = a b c d e f g h */
		uint32_t S1 = ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25);
		uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
		uint32_t t1 = v[7] + S1 + ch + K[t] + w[t];
		uint32_t S0 = ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22);
		uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + S0 + maj;
	}
	for (unsigned i = 0; i < 8; i++)
		h[i] += v[i];
}

void sm_sha256(const void *data, size_t len, uint8_t out[SM_SHA256_BYTES])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const uint8_t *p = data;
	uint8_t last[128] = { 0 };
	size_t full = len / 64 * 64, rest = len - full;
	uint64_t bits = (uint64_t)len * 8;

	for (size_t off = 0; off < full; off += 64)
		block(h, p + off);
	/* the tail, a 1 bit, zeros and the length in bits: one or two blocks */
	memcpy(last, p + full, rest);
	last[rest] = 0x80;
	size_t end = rest < 56 ? 64 : 128;
	for (unsigned i = 0; i < 8; i++)
		last[end - 1 - i] = (uint8_t)(bits >> (8 * i));
	block(h, last);
	if (end == 128)
		block(h, last + 64);
	for (unsigned i = 0; i < 8; i++)
		for (unsigned b = 0; b < 4; b++)
			out[4 * i + b] = (uint8_t)(h[i] >> (24 - 8 * b));
}

void sm_sha256_hex(const void *data, size_t len, char hex[SM_SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	uint8_t d[SM_SHA256_BYTES];

	sm_sha256(data, len, d);
	for (unsigned i = 0; i < SM_SHA256_BYTES; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[2 * SM_SHA256_BYTES] = '\0';
}

int sm_sha256_file(const char *path, size_t max, char hex[SM_SHA256_HEX],
                   char *why, size_t n)
{
	size_t len;
	char *bytes = sm_read_input(path, max, &len, why, n);

	if (!bytes)
		return -1;
	sm_sha256_hex(bytes, len, hex);
	free(bytes);
	return 0;
}
