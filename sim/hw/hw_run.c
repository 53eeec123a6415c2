/*
 * hw_run.c — a `selfmon hw` run as data, here or from a guest's lines
 * (hw_run.h).
 *
 * Owns the choice of events, the loop of checks and the wire format.  It
 * must not print a report or parse command lines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hw_run.h"
#include "lines.h"
#include "model.h"

/* ---- here ------------------------------------------------------------ */

/* The events: software ones always; with a PMU the pinned pair and a set
 * larger than the counters, multiplexed (at most HW_RUN_MAX_EVENTS). */
static unsigned pick_events(const struct hw_machine *m, struct hw_event *ev)
{
	static const char *const sw[] = { "task-clock", "cpu-clock",
	                                  "page-faults" };
	static const char *const pinned[] = { "instructions", "cycles" };
	/* more than any PMU's counters even where only cycles and
	 * instructions exist (QEMU's arm64 PMU: 6 counters and the cycle
	 * counter; its riscv64 one) */
	static const char *const mux[] = { "instructions", "cycles", "branches",
	                                   "branch-misses", "cache-references",
	                                   "cache-misses", "bus-cycles",
	                                   "ref-cycles", "branches",
	                                   "cache-misses", "instructions",
	                                   "cycles", "instructions", "cycles",
	                                   "instructions", "cycles",
	                                   "instructions", "cycles" };
	unsigned n = 0;

	for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++)
		hw_lookup(sw[i], &ev[n++]);
	if (!m->pmu)
		return n;
	for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++) {
		hw_lookup(pinned[i], &ev[n]);
		ev[n++].pinned = true;
	}
	for (size_t i = 0; i < sizeof(mux) / sizeof(mux[0]); i++)
		hw_lookup(mux[i], &ev[n++]);
	/* a counter that overflows every 100000 counts, and arm64's 64-bit
	 * counters (multiplexed with the others) */
	static const char *const more[] = { "cycles:period",
	                                    "instructions:period",
#if defined(__aarch64__)
	                                    "cycles:long", "instructions:long",
#endif
	};
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		hw_lookup(more[i], &ev[n++]);
	return n;
}

int hw_run_here(struct hw_run *run, const struct sm_reader *const *readers,
                unsigned n, unsigned iterations, unsigned slow)
{
	struct hw_event ev[HW_RUN_MAX_EVENTS];

	memset(run, 0, sizeof(*run));
	run->iterations = iterations;
	run->slow = slow;
	hw_describe(&run->m);
	run->nev = pick_events(&run->m, ev);
	for (unsigned i = 0; i < run->nev; i++) {
		struct hw_run_event *e = &run->ev[i];
		hw_open(&ev[i]);
		snprintf(e->name, sizeof(e->name), "%s", ev[i].name);
		e->pinned = ev[i].pinned;
		e->software = ev[i].software;
		e->err = ev[i].err;
		e->have_page = ev[i].pc && hw_snapshot(ev[i].pc, &e->page);
	}
	size_t max = (size_t)n * run->nev;
	run->checks = calloc(max ? max : 1, sizeof(*run->checks));
	for (unsigned k = 0; run->checks && k < n; k++)
		for (unsigned i = 0; i < run->nev; i++) {
			if (!ev[i].pc)
				continue;
			struct hw_run_check *c = &run->checks[run->nchecks++];
			c->reader = readers[k];
			c->event = i;
			hw_check_reader(readers[k], &ev[i], iterations, slow,
			                run->m.ncpus, &c->t);
		}
	for (unsigned i = 0; i < run->nev; i++)
		hw_close(&ev[i]);
	return run->checks ? 0 : -1;
}

void hw_run_free(struct hw_run *run)
{
	free(run->checks);
	run->checks = NULL;
	run->nchecks = 0;
}

/* ---- the wire: writing ----------------------------------------------- */

static void put_text(FILE *f, const char *key, const char *s)
{
	fprintf(f, " %s=", key);
	if (!*s)
		fputs("%00", f); /* empty: one token still */
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p > ' ' && *p <= '~' && *p != '%')
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
}

void hw_run_write(FILE *f, const struct hw_run *run)
{
	const struct hw_machine *m = &run->m;

	fprintf(f, "@selfmon begin version=%d\n", HW_RUN_VERSION);
	fprintf(f, "@selfmon machine arch=%s cpus=%d paranoid=%d pmu=%d "
	        "iterations=%u slow=%u", m->arch, m->ncpus, m->paranoid, m->pmu,
	        run->iterations, run->slow);
	put_text(f, "user_access", m->user_access);
	put_text(f, "no_pmu", m->no_pmu);
	fputc('\n', f);
	for (unsigned i = 0; i < run->nev; i++) {
		const struct hw_run_event *e = &run->ev[i];
		fprintf(f, "@selfmon event name=%s pinned=%d software=%d err=%d "
		        "page=%d", e->name, e->pinned, e->software, -e->err,
		        e->have_page);
		for (unsigned k = 0; e->have_page && k < selfmon_npage_fields; k++) {
			const struct selfmon_page_field *pf = &selfmon_page_fields[k];
			if (strncmp(pf->name, "__", 2))
				fprintf(f, " %s=%" PRIu64, pf->name,
				        selfmon_page_get(&e->page, pf));
		}
		fputc('\n', f);
	}
	for (unsigned i = 0; i < run->nchecks; i++) {
		const struct hw_run_check *c = &run->checks[i];
		fprintf(f, "@selfmon check reader=%s event=%u runs=%u fails=%u "
		        "died=%d hung=%d cpu_ns=%" PRIu64 " read_ps=%" PRIu64
		        " syscall_ps=%" PRIu64, c->reader->name, c->event,
		        c->t.runs, c->t.fails, c->t.died, c->t.hung, c->t.cpu_ns,
		        (uint64_t)(c->t.read_ns * 1000 + 0.5),
		        (uint64_t)(c->t.syscall_ns * 1000 + 0.5));
		put_text(f, "first", c->t.first);
		fputc('\n', f);
	}
	fprintf(f, "@selfmon end checks=%u\n", run->nchecks);
}

/* ---- the wire: reading ----------------------------------------------- */

enum kind { K_BEGIN, K_MACHINE, K_EVENT, K_CHECK, K_END };
static const char *const kinds[] = { "begin", "machine", "event", "check",
                                     "end" };

static const struct sm_line_format wire = {
	.max_len = 4096, .blanks = " \t\r", .comment = SM_COMMENT_LINE,
	.controls_noun = "guest output", .max_tokens = 48,
};

struct parse {
	struct sm_lines l;
	struct hw_run *run;
	int state;               /* the kind of the last line read */
	bool ended;
	const struct sm_reader *const *users; /* the user's, "user:K" */
	unsigned nusers;
};

static int number(struct parse *p, const struct sm_tok *v, uint64_t max,
                  uint64_t *out)
{
	char *end;

	errno = 0;
	unsigned long long x = strtoull(v->s, &end, 10);
	if (!*v->s || *end || errno || x > max || v->s[0] == '-')
		return sm_line_fail(&p->l, v->col, "bad number '%s' (0..%" PRIu64
		                    ")", v->s, max);
	*out = x;
	return 0;
}

static int text(struct parse *p, const struct sm_tok *v, char *out, size_t n)
{
	size_t k = 0;

	for (const char *s = v->s; *s; k++) {
		unsigned c = (unsigned char)*s;
		if (c == '%') {
			unsigned x;
			if (sscanf(s + 1, "%2x", &x) != 1 || !s[1] || !s[2])
				return sm_line_fail(&p->l, v->col, "bad %%-escape");
			c = x;
			s += 3;
		} else
			s++;
		if (k + 1 >= n)
			return sm_line_fail(&p->l, v->col, "text longer than %zu "
			                    "bytes", n - 1);
		out[k] = c >= ' ' && c != 0x7f ? (char)c : c == 0 ? '\0' : '?';
	}
	out[k] = '\0';
	return 0;
}

/* The KEY=VALUE tokens from 1 on, each key of `keys` once (all of them
 * when `all`), into vals[]. */
static int keys_of(struct parse *p, struct sm_keys keys, const char *owner,
                   struct sm_tok *vals, bool all)
{
	for (size_t i = 0; i < keys.n; i++)
		vals[i].s = NULL;
	for (unsigned t = 1; t < p->l.ntok; t++) {
		struct sm_tok v;
		int k = sm_line_key(&p->l, &p->l.tok[t], keys, owner, &v);
		if (k < 0)
			return -1;
		vals[k] = v;
	}
	for (size_t i = 0; all && i < keys.n; i++)
		if (!vals[i].s)
			return sm_line_fail(&p->l, p->l.endcol, "missing %s=",
			                    sm_keys_name(keys, i));
	return 0;
}

static const char *const machine_keys[] = { "arch", "cpus", "paranoid",
	"pmu", "iterations", "slow", "user_access", "no_pmu" };

static int machine(struct parse *p)
{
	struct sm_tok v[8];
	struct hw_machine *m = &p->run->m;
	uint64_t x[5];

	if (keys_of(p, SM_NAMES(machine_keys), "machine", v, true) < 0)
		return -1;
	int a = sm_arch_from_name(v[0].s);
	if (a < 0)
		return sm_line_fail(&p->l, v[0].col, "unknown arch '%s'", v[0].s);
	m->arch = sm_arch_name((enum sm_arch)a);
	if (number(p, &v[1], 4096, &x[0]) < 0 ||
	    number(p, &v[2], 99, &x[1]) < 0 || number(p, &v[3], 1, &x[2]) < 0 ||
	    number(p, &v[4], 10000000, &x[3]) < 0 ||
	    number(p, &v[5], 1000, &x[4]) < 0 ||
	    text(p, &v[6], m->user_access, sizeof(m->user_access)) < 0 ||
	    text(p, &v[7], m->no_pmu, sizeof(m->no_pmu)) < 0)
		return -1;
	if (x[4] == 0)
		return sm_line_fail(&p->l, v[5].col, "slow=0 (1..1000)");
	m->ncpus = (int)x[0];
	m->paranoid = (int)x[1];
	m->pmu = x[2];
	p->run->iterations = (unsigned)x[3];
	p->run->slow = (unsigned)x[4];
	return 0;
}

/* An event's fixed keys, then the page's fields (selfmon_page_fields,
 * without the reserved ones) when page=1. */
static const char *const event_keys[] = { "name", "pinned", "software",
	"err", "page" };

static int page_field(struct parse *p, struct hw_run_event *e,
                      const struct sm_tok *t)
{
	char *eq = strchr(t->s, '=');
	if (!eq)
		return sm_line_fail(&p->l, t->col, "missing '=' in '%s'", t->s);
	*eq = '\0';
	for (unsigned k = 0; k < selfmon_npage_fields; k++) {
		const struct selfmon_page_field *f = &selfmon_page_fields[k];
		if (strcmp(f->name, t->s) || !strncmp(f->name, "__", 2))
			continue;
		struct sm_tok v = { eq + 1, t->col + (unsigned)(eq + 1 - t->s) };
		uint64_t x;
		if (number(p, &v, UINT64_MAX, &x) < 0)
			return -1;
		memcpy((uint8_t *)&e->page + f->off, &x, f->size); /* LE */
		return 0;
	}
	return sm_line_fail(&p->l, t->col, "unknown page field '%s'", t->s);
}

static int event(struct parse *p)
{
	struct hw_run *run = p->run;
	struct sm_tok v[5];
	uint64_t x[4];

	if (run->nev == HW_RUN_MAX_EVENTS)
		return sm_line_fail(&p->l, 1, "more than %d events",
		                    HW_RUN_MAX_EVENTS);
	struct hw_run_event *e = &run->ev[run->nev];
	/* the fixed keys are the first five tokens */
	unsigned ntok = p->l.ntok;
	p->l.ntok = ntok < 6 ? ntok : 6;
	int rc = keys_of(p, SM_NAMES(event_keys), "event", v, true);
	p->l.ntok = ntok;
	if (rc < 0 || text(p, &v[0], e->name, sizeof(e->name)) < 0 ||
	    number(p, &v[1], 1, &x[0]) < 0 || number(p, &v[2], 1, &x[1]) < 0 ||
	    number(p, &v[3], 4095, &x[2]) < 0 || number(p, &v[4], 1, &x[3]) < 0)
		return -1;
	struct hw_event known;
	if (!hw_lookup(e->name, &known))
		return sm_line_fail(&p->l, v[0].col, "unknown event '%s'", e->name);
	e->pinned = x[0];
	e->software = x[1];
	e->err = -(int)x[2];
	e->have_page = x[3];
	if (!e->have_page && ntok > 6)
		return sm_line_fail(&p->l, p->l.tok[6].col, "page fields of an "
		                    "event without page=1");
	for (unsigned t = 6; t < ntok; t++)
		if (page_field(p, e, &p->l.tok[t]) < 0)
			return -1;
	run->nev++;
	return 0;
}

static const char *const check_keys[] = { "reader", "event", "runs",
	"fails", "died", "hung", "cpu_ns", "read_ps", "syscall_ps", "first" };

/* "user:K", the user's reader K the host sent (guest_reader.h), or NULL. */
static const struct sm_reader *user(const struct parse *p, const char *name)
{
	char *end;

	if (strncmp(name, "user:", 5) || name[5] < '0' || name[5] > '9')
		return NULL;
	unsigned long k = strtoul(name + 5, &end, 10);
	return !*end && k < p->nusers && (name[5] != '0' || !name[6])
	       ? p->users[k] : NULL;
}

static int check(struct parse *p)
{
	struct hw_run *run = p->run;
	struct sm_tok v[10];
	uint64_t x[8];

	if (run->nchecks == HW_RUN_MAX_CHECKS)
		return sm_line_fail(&p->l, 1, "more than %d checks",
		                    HW_RUN_MAX_CHECKS);
	struct hw_run_check *c = &run->checks[run->nchecks];
	if (keys_of(p, SM_NAMES(check_keys), "check", v, true) < 0)
		return -1;
	/* a built-in reader of the machine's arch (the host may have no hw
	 * build of it: arm64-only code on an x86-64 host) */
	c->reader = user(p, v[0].s);
	if (!c->reader && (c->reader = sm_reader_find(v[0].s)) &&
	    c->reader->image)
		c->reader = NULL;
	int arch = sm_arch_from_name(run->m.arch);
	if (!c->reader || arch < 0 ||
	    !sm_reader_on(c->reader, (enum sm_arch)arch))
		return sm_line_fail(&p->l, v[0].col, "unknown reader '%s'", v[0].s);
	static const uint64_t max[8] = { HW_RUN_MAX_EVENTS - 1, UINT32_MAX,
		UINT32_MAX, 1, 1, UINT64_MAX, UINT64_MAX, UINT64_MAX };
	for (unsigned i = 0; i < 8; i++)
		if (number(p, &v[i + 1], max[i], &x[i]) < 0)
			return -1;
	if (x[0] >= run->nev)
		return sm_line_fail(&p->l, v[1].col, "no event %" PRIu64, x[0]);
	if (x[2] > x[1])
		return sm_line_fail(&p->l, v[3].col, "more fails than runs");
	if (text(p, &v[9], c->t.first, sizeof(c->t.first)) < 0)
		return -1;
	c->event = (unsigned)x[0];
	c->t.runs = (unsigned)x[1];
	c->t.fails = (unsigned)x[2];
	c->t.died = x[3];
	c->t.hung = x[4];
	c->t.cpu_ns = x[5];
	c->t.read_ns = (double)x[6] / 1000;
	c->t.syscall_ns = (double)x[7] / 1000;
	run->nchecks++;
	return 0;
}

static int line(struct parse *p)
{
	struct sm_tok *w = sm_line_word(&p->l, 1, "the line's kind");
	if (!w)
		return -1;
	int k = sm_keys_find(SM_NAMES(kinds), w->s);
	if (k < 0)
		return sm_line_fail(&p->l, w->col, "unknown line '%s'", w->s);
	/* begin, machine, events, checks, end: in that order, once each
	 * where one */
	static const int after[] = { [K_BEGIN] = -1, [K_MACHINE] = K_BEGIN,
		[K_EVENT] = K_MACHINE, [K_CHECK] = K_EVENT, [K_END] = K_CHECK };
	bool ok = p->state == after[k] || (k == K_EVENT && p->state == K_EVENT) ||
	          (k == K_CHECK && p->state == K_CHECK) ||
	          (k == K_END && p->state == K_EVENT);
	if (p->ended || !ok)
		return sm_line_fail(&p->l, w->col, "'%s' out of order", w->s);
	p->state = k;
	/* the kind is token 1 after "@selfmon": shift the tokens by one so
	 * that keys start at 1 */
	p->l.tok++;
	p->l.ntok--;
	int rc = 0;
	uint64_t x;
	struct sm_tok v[1];
	static const char *const version_key[] = { "version" };
	static const char *const end_key[] = { "checks" };
	switch (k) {
	case K_BEGIN:
		rc = keys_of(p, SM_NAMES(version_key), "begin", v, true);
		if (!rc && (rc = number(p, &v[0], 1000, &x)) == 0 &&
		    x != HW_RUN_VERSION)
			rc = sm_line_fail(&p->l, v[0].col, "version %" PRIu64 " (this "
			                  "selfmon reads %d)", x, HW_RUN_VERSION);
		break;
	case K_MACHINE: rc = machine(p); break;
	case K_EVENT: rc = event(p); break;
	case K_CHECK: rc = check(p); break;
	default:
		rc = keys_of(p, SM_NAMES(end_key), "end", v, true);
		if (!rc && (rc = number(p, &v[0], HW_RUN_MAX_CHECKS, &x)) == 0 &&
		    x != p->run->nchecks)
			rc = sm_line_fail(&p->l, v[0].col, "%" PRIu64 " checks said, %u "
			                  "given", x, p->run->nchecks);
		p->ended = true;
	}
	p->l.tok--;
	p->l.ntok++;
	return rc;
}

/* text with every line that is not ours emptied, so that line numbers
 * stay those of the guest's output (malloc'ed; NULL out of memory). */
static char *ours(const char *text)
{
	size_t n = strlen(text);
	char *out = malloc(n + 1), *o = out;

	for (const char *l = text; out && *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		if (len >= 9 && !memcmp(l, "@selfmon ", 9)) {
			memcpy(o, l, len);
			o += len;
		}
		if (nl)
			*o++ = '\n';
		l += len + (nl != NULL);
	}
	if (out)
		*o = '\0';
	return out;
}

int hw_run_parse(const char *name, const char *text,
                 const struct sm_reader *const *users, unsigned nusers,
                 struct hw_run *run, char *err, size_t errlen)
{
	struct parse p = { .run = run, .state = -1, .users = users,
	                   .nusers = nusers };
	char *mine = ours(text);
	int rc;

	memset(run, 0, sizeof(*run));
	run->checks = calloc(HW_RUN_MAX_CHECKS, sizeof(*run->checks));
	if (!mine || !run->checks) {
		free(mine);
		free(run->checks);
		run->checks = NULL;
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	sm_lines_init(&p.l, &wire, name, mine, err, errlen);
	while ((rc = sm_lines_next(&p.l)) == 1)
		if (line(&p) < 0) {
			rc = -1;
			break;
		}
	if (rc == 0 && !p.ended)
		rc = sm_lines_fail(&p.l, "the guest ended before its last line "
		                   "(no '@selfmon end')");
	sm_lines_free(&p.l);
	free(mine);
	if (rc < 0)
		hw_run_free(run);
	return rc < 0 ? -1 : 0;
}
