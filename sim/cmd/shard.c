/*
 * shard.c — --shard I/N, auto and auto/N, and the sweep identity (see
 * shard.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shard.h"

/* A decimal number with nothing else (no sign, no space) up to max. */
static bool decimal(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno || v > max)
		return false;
	*out = (unsigned long)v;
	return true;
}

/* Environment variable name as a number: 1, 0 unset, -1 (err said) set
 * but not a number up to max. */
static int env_number(const char *name, unsigned long max,
                      unsigned long *out, char *err, size_t n)
{
	const char *v = getenv(name);

	if (!v)
		return 0;
	if (decimal(v, max, out))
		return 1;
	snprintf(err, n, "--shard auto: %s='%.40s' is not a number (0..%lu)",
	         name, v, max);
	return -1;
}

/* The Slurm variables of an array task, all required. */
struct slurm {
	unsigned long id, min, max, count, step;
	bool has_step;
};

/* 1 with the variables, 0 not a Slurm array task, -1 err said. */
static int slurm_env(struct slurm *s, char *err, size_t n)
{
	static const char *const need[] = { "SLURM_ARRAY_TASK_ID",
		"SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
		"SLURM_ARRAY_TASK_COUNT" };
	unsigned long *val[] = { &s->id, &s->min, &s->max, &s->count };
	int rc;

	if (!getenv(need[0]))
		return 0;
	for (int k = 0; k < 4; k++) {
		if ((rc = env_number(need[k], 4000000000ul, val[k], err, n)) < 0)
			return -1;
		if (rc == 0) {
			snprintf(err, n, "--shard auto: %s is set but %s is not (not "
			         "a Slurm array task?)", need[0], need[k]);
			return -1;
		}
	}
	rc = env_number("SLURM_ARRAY_TASK_STEP", 4000000000ul, &s->step, err, n);
	s->has_step = rc == 1;
	return rc < 0 ? -1 : 1;
}

/* I and N from a Slurm array (want_n: N that --shard auto/N named, or 0):
 * its indices must be consecutive, MIN..MAX. */
static int from_slurm(const struct slurm *s, unsigned want_n, unsigned *i,
                      unsigned *n, char *note, size_t note_n, char *err,
                      size_t err_n)
{
	if ((s->has_step && s->step != 1 && s->count > 1) ||
	    s->max < s->min || s->max - s->min + 1 != s->count) {
		snprintf(err, err_n, "--shard auto: the Slurm array's indices are "
		         "not consecutive (MIN %lu, MAX %lu, COUNT %lu, STEP %s): "
		         "submit it with --array=A-B", s->min, s->max, s->count,
		         s->has_step ? getenv("SLURM_ARRAY_TASK_STEP") : "unset");
		return -1;
	}
	if (s->count > SM_MAX_SHARDS) {
		snprintf(err, err_n, "--shard auto: the Slurm array has %lu tasks "
		         "(SLURM_ARRAY_TASK_COUNT), more than the %u shards check "
		         "splits a sweep into", s->count, SM_MAX_SHARDS);
		return -1;
	}
	if (s->id < s->min || s->id > s->max) {
		snprintf(err, err_n, "--shard auto: SLURM_ARRAY_TASK_ID %lu is "
		         "outside the array %lu-%lu", s->id, s->min, s->max);
		return -1;
	}
	if (want_n && s->count != want_n) {
		snprintf(err, err_n, "--shard auto/%u: the Slurm array has %lu "
		         "tasks, not %u", want_n, s->count, want_n);
		return -1;
	}
	*i = (unsigned)(s->id - s->min);
	*n = (unsigned)s->count;
	const char *job = getenv("SLURM_ARRAY_JOB_ID");
	if (job && (!*job || strspn(job, "0123456789") != strlen(job)))
		job = NULL; /* not Slurm's number: nothing of it reaches stderr */
	snprintf(note, note_n, "--shard auto: shard %u/%u from the Slurm array "
	         "%s%.20s (SLURM_ARRAY_TASK_ID=%lu, SLURM_ARRAY_TASK_MIN=%lu, "
	         "SLURM_ARRAY_TASK_COUNT=%lu)", *i, *n, job ? "job " : "",
	         job ? job : "", s->id, s->min, s->count);
	return 0;
}

/* I from a Kubernetes Indexed Job, N as given (0: not given). */
static int from_kubernetes(unsigned want_n, unsigned *i, unsigned *n,
                           char *note, size_t note_n, char *err,
                           size_t err_n)
{
	unsigned long idx;
	int rc = env_number("JOB_COMPLETION_INDEX", SM_MAX_SHARDS, &idx, err,
	                    err_n);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		snprintf(err, err_n, "--shard auto: neither a Slurm array task "
		         "(SLURM_ARRAY_TASK_ID) nor a Kubernetes Indexed Job "
		         "(JOB_COMPLETION_INDEX) in the environment");
		return -1;
	}
	if (!want_n) {
		snprintf(err, err_n, "--shard auto: JOB_COMPLETION_INDEX is set (a "
		         "Kubernetes Indexed Job), which gives no shard count: use "
		         "--shard auto/N with N the Job's completions");
		return -1;
	}
	if (idx >= want_n) {
		snprintf(err, err_n, "--shard auto/%u: JOB_COMPLETION_INDEX %lu is "
		         "not below %u (the Job's completions?)", want_n, idx,
		         want_n);
		return -1;
	}
	*i = (unsigned)idx;
	*n = want_n;
	snprintf(note, note_n, "--shard auto/%u: shard %u/%u from the "
	         "Kubernetes Indexed Job (JOB_COMPLETION_INDEX=%lu)", want_n, *i,
	         *n, idx);
	return 0;
}

static int from_env(unsigned want_n, unsigned *i, unsigned *n, char *note,
                    size_t note_n, char *err, size_t err_n)
{
	struct slurm s;
	int rc = slurm_env(&s, err, err_n);

	if (rc < 0)
		return -1;
	if (rc > 0)
		return from_slurm(&s, want_n, i, n, note, note_n, err, err_n);
	return from_kubernetes(want_n, i, n, note, note_n, err, err_n);
}

int sm_shard_parse(const char *val, unsigned *i, unsigned *n, char *note,
                   size_t note_n, char *err, size_t err_n)
{
	const char *slash = strchr(val, '/');
	unsigned long a, b;
	char head[16];

	if (note_n)
		note[0] = '\0';
	if (!strcmp(val, "auto"))
		return from_env(0, i, n, note, note_n, err, err_n);
	if (slash && (size_t)(slash - val) < sizeof(head) &&
	    decimal(slash + 1, SM_MAX_SHARDS, &b) && b > 0) {
		memcpy(head, val, (size_t)(slash - val));
		head[slash - val] = '\0';
		if (!strcmp(head, "auto"))
			return from_env((unsigned)b, i, n, note, note_n, err, err_n);
		if (decimal(head, SM_MAX_SHARDS, &a) && a < b) {
			*i = (unsigned)a;
			*n = (unsigned)b;
			return 0;
		}
	}
	snprintf(err, err_n, "--shard needs I/N with 0 <= I < N <= %u, auto "
	         "(a Slurm job array) or auto/N (a Kubernetes Indexed Job)",
	         SM_MAX_SHARDS);
	return -1;
}

void sm_sweep_id_init(struct sm_sweep_id *s)
{
	s->h = 14695981039346656037ull; /* FNV-1a offset basis */
}

void sm_sweep_id_str(struct sm_sweep_id *s, const char *field)
{
	const unsigned char *p = (const unsigned char *)field;

	do { /* the NUL too: each field is ended */
		s->h ^= *p;
		s->h *= 1099511628211ull; /* FNV-1a 64-bit prime */
	} while (*p++);
}

void sm_sweep_id_u64(struct sm_sweep_id *s, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	sm_sweep_id_str(s, buf);
}

const char *sm_sweep_id_hex(const struct sm_sweep_id *s, char *buf, size_t n)
{
	snprintf(buf, n, "%016" PRIx64, s->h);
	return buf;
}
