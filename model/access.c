/*
 * access.c — what the engines and commands read of a model's state, one
 * call each, so that they need not know its layout (state.h).
 *
 * Owns: the accessors declared in model.h under "reading a model" and
 * the snapshot's allocation.  It must not change the kernel's state
 * beyond time's idle step (sm_model_idle_step(), which is what the
 * driver's fast path did in place), nor compute anything the kernel
 * decides (kernel.c, event.c, the drivers).
 */
#include <stdlib.h>

#include "state.h"

const struct sm_config *sm_model_config(const struct sm_model *m)
{
	return m->cfg;
}

uint64_t sm_model_now(const struct sm_model *m)
{
	return m->k.now;
}

uint64_t sm_model_updates(const struct sm_model *m)
{
	return m->k.updates;
}

enum sm_action_kind sm_model_cause(const struct sm_model *m)
{
	return m->k.cause;
}

unsigned sm_model_task_cpu(const struct sm_model *m)
{
	return m->k.task_cpu;
}

bool sm_model_capped(const struct sm_model *m)
{
	return m->k.capped;
}

bool sm_model_unmapped(const struct sm_model *m, int ev)
{
	return m->k.ev[ev].unmapped;
}

void *sm_model_page_mem(struct sm_model *m, int ev)
{
	return m->page[ev].bytes;
}

bool sm_model_store_at(const struct sm_model *m, unsigned k, uint16_t *off,
                       uint64_t *val)
{
	if (k >= m->sb.npending)
		return false;
	*off = m->sb.pending[k].off;
	*val = m->sb.pending[k].val;
	return true;
}

bool sm_model_idle_step(struct sm_model *m, uint64_t deadline)
{
	if (m->k.now + 1 >= deadline || m->sb.backlog_next != m->sb.nbacklog ||
	    m->sb.pending_next != m->sb.npending)
		return false;
	m->k.now++;
	return true;
}

struct sm_snapshot *sm_snapshot_new(void)
{
	return calloc(1, sizeof(struct sm_snapshot));
}

void sm_snapshot_free(struct sm_snapshot *s)
{
	free(s);
}
