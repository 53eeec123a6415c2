/*
 * buggy_reader.c — good_reader.c with one fault: the counter value is
 * added as read, without sign extension from pmc_width.  On x86-64 the
 * kernel programs a counter with -left (the upper bits of a 48-bit counter
 * set), so every count read from the counter is about 2^48 too big.
 *
 *   int buggy_read(const void *page, int fd, struct values *out);
 */
#define READER_ENTRY buggy_read
#define READER_NO_SIGN_EXTEND 1
#include "good_reader.c"
