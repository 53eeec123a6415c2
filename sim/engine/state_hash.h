/*
 * state_hash.h — a 128-bit hash of a run's state, for the explorer's
 * pruning of schedules that reach a state it has explored (prune.c).
 *
 * Owns: the hash function, and which fields of the session's run state
 * are state (they decide the rest of the run); the model names its own
 * (sm_model_state_words()).  Engines hash
 * their own part (sm_engine_ops.hash).  Equal states give equal hashes;
 * different ones equal hashes with probability about 2^-128 per pair
 * (not a defence against inputs built to collide: --no-prune is).
 */
#ifndef SELFMON_STATE_HASH_H
#define SELFMON_STATE_HASH_H

#include <stddef.h>
#include <stdint.h>

struct sm_model;
struct sm_run;

struct sm_hasher {
	uint64_t v[4];   /* four lanes, 8 bytes each of every 32 */
	uint64_t len;
};

void sm_hash_init(struct sm_hasher *h);
void sm_hash_bytes(struct sm_hasher *h, const void *p, size_t n);
void sm_hash_final(const struct sm_hasher *h, uint64_t out[2]);

/* What of the model decides the rest of a run: the state a snapshot
 * holds, as the model names it (sm_model_state_words()). */
void sm_hash_model(struct sm_hasher *h, const struct sm_model *m);
/* The run's position: step, deadlines, scheduled and scripted actions
 * still to come, kernel activity, the explorer's stale choice for the
 * next read (not the logs' lengths, which only say
 * where the logs end).  Its owed samples must be settled. */
void sm_hash_run(struct sm_hasher *h, const struct sm_run *r);

#endif
