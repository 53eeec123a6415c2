/*
 * state_hash.c — the state hash (state_hash.h): four multiply-xorshift
 * lanes over 8-byte words, folded into 128 bits by a final mix.  Each
 * lane's step is a bijection of its state for a given word, so two
 * inputs of one length differing in one word differ in that lane.
 *
 * Owns: the hash and the run's state words (the model gives its own).
 * It must not
 * know any engine.
 */
#include <string.h>

#include "session.h"
#include "state_hash.h"

static const uint64_t K[4] = {
	0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full,
	0x165667b19e3779f9ull, 0xd6e8feb86659fd93ull,
};

static inline uint64_t step(uint64_t v, uint64_t w, uint64_t k)
{
	v = (v ^ w) * k;
	return v ^ (v >> 32);
}

static uint64_t fmix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

void sm_hash_init(struct sm_hasher *h)
{
	for (int i = 0; i < 4; i++)
		h->v[i] = K[(i + 1) & 3];
	h->len = 0;
}

/* Every call hashes its bytes and their count: calls do not run into
 * each other. */
void sm_hash_bytes(struct sm_hasher *h, const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t v0 = h->v[0], v1 = h->v[1], v2 = h->v[2], v3 = h->v[3], w[4];
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		memcpy(w, b + i, 32);
		v0 = step(v0, w[0], K[0]);
		v1 = step(v1, w[1], K[1]);
		v2 = step(v2, w[2], K[2]);
		v3 = step(v3, w[3], K[3]);
	}
	memset(w, 0, sizeof(w));
	memcpy(w, b + i, n - i);
	v0 = step(v0, w[0], K[0]);
	v1 = step(v1, w[1], K[1]);
	v2 = step(v2, w[2], K[2]);
	v3 = step(v3, w[3] ^ ((uint64_t)n << 8), K[3]);
	h->v[0] = v0, h->v[1] = v1, h->v[2] = v2, h->v[3] = v3;
	h->len += n;
}

void sm_hash_final(const struct sm_hasher *h, uint64_t out[2])
{
	uint64_t a = fmix(h->v[3] ^ h->len), b = fmix(h->v[0] + h->len);

	a = fmix(h->v[2] ^ a);
	a = fmix(h->v[1] ^ a);
	out[0] = fmix(h->v[0] ^ a);
	b = fmix(h->v[1] + b);
	b = fmix(h->v[2] + b);
	out[1] = fmix(h->v[3] + b);
}

static void put_words(void *h, const uint64_t *w, size_t n)
{
	sm_hash_bytes(h, w, n * sizeof(w[0]));
}

/* The model's state as its snapshots hold it, field by field as the model
 * names them (sm_model_state_words()). */
void sm_hash_model(struct sm_hasher *h, const struct sm_model *m)
{
	sm_model_state_words(m, put_words, h);
}

void sm_hash_run(struct sm_hasher *h, const struct sm_run *r)
{
	uint64_t w[11] = { r->step, r->deadline, r->last_kernel_step,
	                   r->sched_next, r->timed_next, r->kernel_active,
	                   r->counter_last, r->counter_path, r->stale_at,
	                   r->call, r->split };

	sm_hash_bytes(h, w, sizeof(w));
}
