/*
 * sha256.h — SHA-256 (FIPS 180-4), for the hashes a counterexample trace
 * records of the reader object and the scenario it was found with.
 *
 * Owns: the digest of bytes in memory and of one input file (input.h's
 * rules), and its lowercase hex form.  Nothing else: what is hashed and
 * what a mismatch means belong to the trace's users.
 */
#ifndef SELFMON_SHA256_H
#define SELFMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SM_SHA256_BYTES 32
#define SM_SHA256_HEX (2 * SM_SHA256_BYTES + 1) /* with the NUL */

void sm_sha256(const void *data, size_t len, uint8_t out[SM_SHA256_BYTES]);
/* The digest of data as 64 lowercase hex digits and a NUL. */
void sm_sha256_hex(const void *data, size_t len, char hex[SM_SHA256_HEX]);
/* The digest of the file at path (at most max bytes, input.h): 0, or -1
 * with the reason in why. */
int sm_sha256_file(const char *path, size_t max, char hex[SM_SHA256_HEX],
                   char *why, size_t n);

#endif
