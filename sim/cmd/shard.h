/*
 * shard.h — splitting a sweep across machines: what `--shard` means
 * (I/N given, or taken from a batch system's environment with `auto`) and
 * the sweep's identity that `check --json` records so that `merge` can
 * tell the shards of one sweep from those of another.
 *
 * Owns: the --shard syntax, the Slurm and Kubernetes variables it reads,
 * and the hash over what defines a sweep.  It knows nothing of cells
 * beyond the text check feeds it.
 */
#ifndef SELFMON_SHARD_H
#define SELFMON_SHARD_H

#include <stddef.h>
#include <stdint.h>

/* At most this many shards. */
#define SM_MAX_SHARDS 100000u

/* --shard VALUE: "I/N"; "auto", I and N from a Slurm job array
 * (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT);
 * "auto/N", I from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) or a
 * Slurm array of N tasks.  0 with *i, *n and, for auto, the line saying
 * where they came from in note (else ""); -1 with one line in err. */
int sm_shard_parse(const char *val, unsigned *i, unsigned *n, char *note,
                   size_t note_n, char *err, size_t err_n);

/* The sweep's identity: FNV-1a (64 bits) over fields fed in order, each
 * ended by a NUL so that ("ab","c") and ("a","bc") differ. */
struct sm_sweep_id {
	uint64_t h;
};

void sm_sweep_id_init(struct sm_sweep_id *s);
void sm_sweep_id_str(struct sm_sweep_id *s, const char *field);
void sm_sweep_id_u64(struct sm_sweep_id *s, uint64_t v);
/* 16 lower-case hex digits and a NUL into buf (17 bytes at least). */
const char *sm_sweep_id_hex(const struct sm_sweep_id *s, char *buf, size_t n);

#endif
