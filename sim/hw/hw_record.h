/*
 * hw_record.h — recording what the real kernel writes to the pages of
 * this thread's events: `selfmon hw record`.
 */
#ifndef SELFMON_HW_RECORD_H
#define SELFMON_HW_RECORD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "hw_event.h"
#include "hw_trace.h"

struct hw_recorder {
	struct hw_event ev[HW_TRACE_MAX_EVENTS];
	unsigned nev;
	pthread_mutex_t mu;          /* the log: both threads add to it */
	struct hw_trace_rec *r;
	size_t n, cap;
	bool oom;                    /* a record was lost: no trace */
	atomic_bool stop;
	atomic_int main_cpu;   /* the recorded thread's CPU: the poller keeps off */
	uint64_t readv[HW_TRACE_MAX_EVENTS][3]; /* the read action's values */
	bool readok[HW_TRACE_MAX_EVENTS];
	uint64_t t0;
};

/* Record `events` (a comma-separated list of known event names) for a
 * script of about `ms` ms: 0 with the records in rec (each event still
 * open, for the trace's header), or -1 with one line in err.  Free with
 * hw_record_free() either way. */
int hw_record(struct hw_recorder *rec, const char *events, unsigned long ms,
              char *err, size_t errlen);
void hw_record_free(struct hw_recorder *rec);

#endif
