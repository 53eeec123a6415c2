/*
 * result_json.h — a result's fields (session.h's struct sm_result) as
 * JSON members: what is wrong ("wrong": one object per wrong value) and a
 * fault's kind and addresses ("fault").  One writer, for check's cells and
 * the teaching page's result, so that both carry the same fields.
 *
 * Owns: the members' names and layout.  It must not word a result (that is
 * the detail, sm_result_render()) nor decide anything about it.
 */
#ifndef SELFMON_RESULT_JSON_H
#define SELFMON_RESULT_JSON_H

#include "json.h"
#include "result.h"

/* "wrong": [...] for a WRONG_VALUE (every wrong field), "fault": {...}
 * for a FAULT that has a kind; nothing for other results. */
void sm_result_json(struct json *j, const struct sm_result *r);

#endif
