/*
 * result_read.c — a result's fields from JSON (result_read.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result_read.h"

/* A whole number, signed: true with it in *out. */
static bool get_i64(const struct jr_value *v, int64_t *out)
{
	char *end;

	if (!v || v->type != JR_NUMBER || strpbrk(v->text, ".eE"))
		return false;
	errno = 0;
	long long x = strtoll(v->text, &end, 10);
	if (errno || *end)
		return false;
	*out = x;
	return true;
}

static bool get_u64(const struct jr_value *o, const char *key, uint64_t *out)
{
	return jr_u64(jr_get(o, key), out);
}

static bool get_bool(const struct jr_value *o, const char *key, bool *out)
{
	const struct jr_value *v = jr_get(o, key);

	if (!v || v->type != JR_BOOL)
		return false;
	*out = v->b;
	return true;
}

/* The index of name among n names of fn, or -1. */
static int name_index(const char *name, int from, int n,
                      const char *(*fn)(int))
{
	for (int i = from; name && i < n; i++)
		if (!strcmp(name, fn(i)))
			return i;
	return -1;
}

static const char *field_name(int i)
{
	return sm_wrong_field_name((enum sm_wrong_field)i);
}

static const char *cause_name(int i)
{
	return sm_cause_name((enum sm_cause)i);
}

static const char *fault_name(int i)
{
	return sm_fault_kind_name((enum sm_fault_kind)i);
}

/* How many members an object has: the layout's exactly, no other. */
static bool members(const struct jr_value *o, size_t want)
{
	return o->n == want;
}

/* One of "wrong"'s objects: 0, or -1 (err says which member). */
static int wrong_one(const struct jr_value *o, struct sm_wrong *x,
                     unsigned *width, bool *has_width, char *err, size_t n)
{
	int f = name_index(jr_str(jr_get(o, "field")), 0, SM_NWF, field_name);
	uint64_t w;
	int64_t rc;

	if (o->type != JR_OBJECT || f < 0)
		return snprintf(err, n, "a \"wrong\" value with no known \"field\""), -1;
	x->field = (enum sm_wrong_field)f;
	if (f == SM_WF_RC) {
		if (!get_i64(jr_get(o, "value"), &rc) || !members(o, 2))
			return snprintf(err, n, "a bad \"wrong\" rc (a \"value\")"), -1;
		x->value = (uint64_t)rc;
		return 0;
	}
	if (f == SM_WF_RELATION) {
		if (!get_u64(o, "value", &x->value) ||
		    !get_u64(o, "enabled", &x->truth_lo) || !members(o, 3))
			return snprintf(err, n, "a bad \"wrong\" relation (\"value\" "
			                "and \"enabled\")"), -1;
		return 0;
	}
	if (!get_u64(o, "value", &x->value) ||
	    !get_u64(o, "truth_lo", &x->truth_lo) ||
	    !get_u64(o, "truth_hi", &x->truth_hi) ||
	    !get_bool(o, "burst", &x->burst))
		return snprintf(err, n, "a bad \"wrong\" %s (\"value\", "
		                "\"truth_lo\", \"truth_hi\", \"burst\")",
		                field_name(f)), -1;
	if (!jr_get(o, "offset_bits"))
		return members(o, 5) ? 0
		       : (snprintf(err, n, "a \"wrong\" %s with other members",
		                   field_name(f)), -1);
	const char *off = jr_str(jr_get(o, "offset"));
	int c = name_index(jr_str(jr_get(o, "cause")), 0, SM_NCAUSES, cause_name);
	uint64_t bits;
	if (!get_u64(o, "offset_bits", &bits) || !bits || bits > 64 || !off ||
	    (strcmp(off, "above") && strcmp(off, "below")) || c < 0 ||
	    !get_u64(o, "width", &w) || w > 64 || (*has_width && w != *width) ||
	    !members(o, 9))
		return snprintf(err, n, "a bad \"wrong\" offset (\"offset_bits\", "
		                "\"offset\", \"cause\", \"width\")"), -1;
	x->offset_bits = (unsigned)bits;
	x->above = !strcmp(off, "above");
	x->cause = (enum sm_cause)c;
	*width = (unsigned)w;
	*has_width = true;
	return 0;
}

static int read_wrong(const struct jr_value *v, struct sm_result *r,
                      char *err, size_t n)
{
	bool has_width = false;

	if (v->type != JR_ARRAY || !v->n || v->n > 3)
		return snprintf(err, n, "\"wrong\" is no array of 1 to 3 values"), -1;
	for (size_t i = 0; i < v->n; i++)
		if (wrong_one(&v->items[i], &r->wrong[i], &r->width, &has_width,
		              err, n) < 0)
			return -1;
	r->nwrong = (unsigned)v->n;
	r->verdict = SM_V_WRONG_VALUE;
	return 0;
}

static int read_fault(const struct jr_value *v, struct sm_result *r,
                      char *err, size_t n)
{
	int k = name_index(jr_str(jr_get(v, "kind")), 1, SM_NFK, fault_name);
	const struct jr_value *pc = jr_get(v, "pc"), *addr = jr_get(v, "address");

	if (v->type != JR_OBJECT || k < 0 ||
	    (pc && !jr_u64(pc, &r->fault_pc)) ||
	    (addr && !jr_u64(addr, &r->fault_addr)) ||
	    !members(v, 1 + !!pc + !!addr))
		return snprintf(err, n, "a bad \"fault\" (a known \"kind\", a "
		                "\"pc\" and an \"address\")"), -1;
	r->fault = (enum sm_fault_kind)k;
	r->has_pc = pc != NULL;
	r->has_addr = addr != NULL;
	r->verdict = SM_V_FAULT;
	return 0;
}

/* "missing_isb": its four members, counters 0..31 (sm_result_isb()). */
static int read_isb(const struct jr_value *v, struct sm_result *r,
                    char *err, size_t n)
{
	uint64_t sel, rd;

	if (v->type != JR_OBJECT || !get_u64(v, "msr_pc", &r->isb.msr_pc) ||
	    !get_u64(v, "mrs_pc", &r->isb.mrs_pc) ||
	    !get_u64(v, "selected", &sel) || !get_u64(v, "read", &rd) ||
	    sel > 31 || rd > 31 || !members(v, 4))
		return snprintf(err, n, "a bad \"missing_isb\" (\"msr_pc\", "
		                "\"mrs_pc\", \"selected\" and \"read\")"), -1;
	r->isb.taken = true;
	r->isb.selected = (unsigned)sel;
	r->isb.read = (unsigned)rd;
	return 0;
}

int sm_result_read(const struct jr_value *cell, struct sm_result *r,
                   char *err, size_t n)
{
	const struct jr_value *w = jr_get(cell, "wrong");
	const struct jr_value *f = jr_get(cell, "fault");
	const struct jr_value *isb = jr_get(cell, "missing_isb");
	int rc = 0;

	if (w && f)
		return snprintf(err, n, "both \"wrong\" and \"fault\""), -1;
	if (isb && !w && !f)
		return snprintf(err, n, "a \"missing_isb\" without \"wrong\" "
		                "or \"fault\""), -1;
	if (w)
		rc = read_wrong(w, r, err, n);
	if (f)
		rc = read_fault(f, r, err, n);
	if (rc == 0 && isb)
		rc = read_isb(isb, r, err, n);
	return rc;
}
