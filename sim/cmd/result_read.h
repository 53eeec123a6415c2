/*
 * result_read.h — a result's fields read back from the JSON members that
 * result_json.c writes ("wrong", "fault", "missing_isb"), for `merge`.
 *
 * Owns: the inverse of result_json.c's layout, strictly: every member it
 * writes for a field must be there with its type, names must be the
 * enums' own, and what it could not have written is refused.  It must
 * not word a result or judge it.
 */
#ifndef SELFMON_RESULT_READ_H
#define SELFMON_RESULT_READ_H

#include <stddef.h>

#include "json_read.h"
#include "session.h"

/* The members of the object cell into r (verdict WRONG_VALUE with its
 * wrong values and width, or FAULT with its kind and addresses, either
 * with the missing isb; neither: r->verdict is left alone): 0, or -1
 * with one line in err (what is bad, by its member). */
int sm_result_read(const struct jr_value *cell, struct sm_result *r,
                   char *err, size_t n);

#endif
