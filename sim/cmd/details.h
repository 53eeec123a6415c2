/*
 * details.h — the details after the verdict table, as `check` and `merge`
 * print them: one block per cell that did not get its expected verdict,
 * identical failures grouped into one block.
 *
 * Owns: what makes two failures identical and the blocks' text, so the
 * two commands cannot drift apart.  It must not know where a cell report
 * comes from (a finished cell, or a shard's JSON); the JSON, JUnit and
 * TAP outputs keep every cell and are not its business.
 */
#ifndef SELFMON_DETAILS_H
#define SELFMON_DETAILS_H

#include <stddef.h>

#include "cell_report.h"

/* The detail with its numbers taken out, in memory of its own (free()
 * it; NULL when out of memory): each decimal number, a maximal run of
 * digits that does not continue a word ("PMEVCNTR12", "s64"), a hex
 * literal or an exponent ("2^48"), becomes '#'.  Hex literals (the
 * addresses of faulting instructions) and exponents (the size of an
 * offset: 2^48, 2^32) stay, as they tell one cause from another; values,
 * ranges and steps, which vary with the scenario, go. */
char *sm_detail_shape(const char *detail);

/* Print the blocks of those of the n cells that ran and did not get
 * their expected verdict, in their order.  Cells with the same reader,
 * verdict, expected verdict and shape of their detail are one failure:
 * the first one's block, then "the same failure in K cells: scenarios A,
 * B, ..." ("outcome" for a verdict that is no failure, an unexpected
 * PASS).  0, or -1 when out of memory (nothing printed). */
int sm_details_print(const struct sm_cell_report *c, size_t n);

#endif
