/*
 * readfmt.c — read(2) of an event: the bytes __perf_read() answers, in
 * the layout of the event's attr.read_format (Linux 6.12,
 * kernel/events/core.c).
 *
 * Owns: the size rule (event->read_size, __perf_event_read_size()), the
 * end of file of an event in error state, the layouts of perf_read_one()
 * and perf_read_group(), and the events' ids (primary_event_id()).
 *
 * Must not touch: how a count or a time is brought up to date (kernel.c's
 * sm_kernel_read(), perf_event_read()'s part) or the page.
 */
#include <errno.h>
#include <string.h>

#include "event.h"
#include "kernel.h"

unsigned sm_event_read_format(const struct sm_event_cfg *e)
{
	return e->read_format & SM_RF_GIVEN ? e->read_format & SM_RF_ALL
	                                    : SM_RF_DEFAULT;
}

/* primary_event_id(): event->id, from perf_event_alloc()'s
 * atomic64_inc_return(&perf_event_id), one system-wide sequence.  The
 * model's events get 1, 2, ... in the order they are opened, as on a
 * system where they are the first events opened (no inherited events:
 * the parent's id does not arise). */
uint64_t sm_model_event_id(const struct sm_model *m, int i)
{
	(void)m;
	return (uint64_t)i + 1;
}

/* A group's members are the leader and the events whose cfg names it
 * (perf_group_attach(); for_each_sibling_event() in the order they were
 * opened). */
static unsigned leader_of(const struct sm_model *m, unsigned i)
{
	return sm_leader_of(m->cfg, i);
}

static unsigned nr_siblings(const struct sm_model *m, unsigned leader)
{
	unsigned n = 0;

	for (unsigned j = 0; j < m->k.nopen; j++)
		n += j != leader && leader_of(m, j) == leader;
	return n;
}

/* __perf_event_read_size(): the times once, then a (value, [id], [lost])
 * entry per event read, with nr first for a group; perf_event__header_size()
 * takes nr_siblings from the group's leader. */
size_t sm_model_read_size(const struct sm_model *m, int i)
{
	if (i < 0 || (unsigned)i >= m->k.nopen)
		return 0;
	unsigned rf = sm_event_read_format(&m->cfg->event[i]);
	size_t entry = 8, size = 0, nr = 1;

	size += rf & SM_RF_TOTAL_TIME_ENABLED ? 8 : 0;
	size += rf & SM_RF_TOTAL_TIME_RUNNING ? 8 : 0;
	entry += rf & SM_RF_ID ? 8 : 0;
	entry += rf & SM_RF_LOST ? 8 : 0;
	if (rf & SM_RF_GROUP) {
		nr += nr_siblings(m, leader_of(m, (unsigned)i));
		size += 8;
	}
	return size + nr * entry;
}

/* One member's entry: value, [id], [lost].  lost is event->lost_samples,
 * counted when a sample finds the ring buffer full (perf_output_begin());
 * the model has no ring buffer, so it is 0, as for every counting
 * event. */
static unsigned entry(const struct sm_model *m, unsigned rf, unsigned j,
                      uint64_t *v)
{
	unsigned n = 0;

	v[n++] = m->k.ev[j].count;
	if (rf & SM_RF_ID)
		v[n++] = sm_model_event_id(m, (int)j);
	if (rf & SM_RF_LOST)
		v[n++] = 0;
	return n;
}

/* __perf_read(): an event in error state (a pinned one that could not go
 * on) reads as end of file; a buffer below read_size is -ENOSPC; then
 * perf_read_group() or perf_read_one().  Either first brings the counts
 * and times up to date (perf_event_read(): for a group, the leader's and
 * its siblings', perf_event_read(leader, true)). */
long sm_model_read(struct sm_model *m, int i, void *buf, size_t len)
{
	uint64_t v[SM_READ_MAX / 8];
	unsigned n = 0;

	if (i < 0 || (unsigned)i >= m->k.nopen)
		return -EBADF;
	if (m->k.ev[i].state == SM_ERROR)
		return 0;
	if (len < sm_model_read_size(m, i))
		return -ENOSPC;
	unsigned rf = sm_event_read_format(&m->cfg->event[i]);
	if (!(rf & SM_RF_GROUP)) {
		/* perf_read_one(): value, [enabled], [running], [id], [lost] */
		struct sm_event *e = &m->k.ev[i];
		sm_kernel_read(m, i);
		v[n++] = e->count;
		if (rf & SM_RF_TOTAL_TIME_ENABLED)
			v[n++] = e->total_enabled;
		if (rf & SM_RF_TOTAL_TIME_RUNNING)
			v[n++] = e->total_running;
		if (rf & SM_RF_ID)
			v[n++] = sm_model_event_id(m, i);
		if (rf & SM_RF_LOST)
			v[n++] = 0;
	} else {
		/* perf_read_group() -> __perf_read_group_add(): nr, the
		 * leader's times ("siblings' times are identical" as groups
		 * are co-scheduled: the leader's are published), then the
		 * leader's entry and each sibling's, in the reading event's
		 * format */
		unsigned l = leader_of(m, (unsigned)i);
		sm_kernel_read(m, i);
		v[n++] = 1 + nr_siblings(m, l);
		if (rf & SM_RF_TOTAL_TIME_ENABLED)
			v[n++] = m->k.ev[l].total_enabled;
		if (rf & SM_RF_TOTAL_TIME_RUNNING)
			v[n++] = m->k.ev[l].total_running;
		n += entry(m, rf, l, v + n);
		for (unsigned j = 0; j < m->k.nopen; j++)
			if (j != l && leader_of(m, j) == l)
				n += entry(m, rf, j, v + n);
	}
	memcpy(buf, v, n * 8);
	return (long)(n * 8);
}
