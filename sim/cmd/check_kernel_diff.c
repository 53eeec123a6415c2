/*
 * check_kernel_diff.c — `check --kernel-diff V`: the sweep on the kernel
 * and again with V added (a kernel version such as 7.2 and/or variants:
 * the same bits of the kernel mask; the JSON still calls V "variant"),
 * or `--kernel-diff A..B`: the sweep on kernel A and again on kernel B
 * (the JSON's "from" and "to"), and the cells whose verdict changed, as
 * a table or --json (check.h).
 *
 * Owns: what "changed" and "broke" mean (passed on the old kernel, fails
 * or cannot run on the new) and the diff's outputs and exit status.  It
 * must not plan cells or change how one is explored: it runs the plan's
 * jobs twice.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "commands.h"
#include "json.h"
#include "table.h"

static const char *verdict_of(const struct job *j)
{
	return j->error[0] ? "ERROR" : sm_verdict_name(j->cell.verdict);
}

/* A cell that passed on the old kernel and fails (or cannot run) on the
 * new one: something a correct reader relied on broke. */
static bool broke(const struct job *was, const struct job *now)
{
	return !was->error[0] && was->cell.verdict == SM_V_PASS &&
	       (now->error[0] || sm_verdict_fails(now->cell.verdict));
}

/* The failing side's minimised line (the new one's if both fail). */
static const struct job *failing_side(const struct job *was,
                                      const struct job *now)
{
	return now->min_line ? now : was->min_line ? was : NULL;
}

/* The kernel a cell ran on in the first sweep. */
static unsigned old_kernel(const struct plan *p, const struct job *now)
{
	return p->o.diff_range ? p->o.diff_from
	                       : now->scn->cfg.kernel & ~p->o.diff;
}

static void diff_json(const struct plan *p, const struct job *old,
                      unsigned changed, unsigned nbroke)
{
	struct json js;
	char kn[256];

	json_init(&js, stdout);
	json_begin(&js, NULL, '{');
	json_str(&js, "engine", sm_engine_name(p->o.engine));
	json_u64(&js, "bound", p->o.x.bound);
	if (p->o.diff_range) {
		json_str(&js, "from", sm_kernel_text(p->o.diff_from, kn,
		                                     sizeof(kn)));
		json_str(&js, "to", sm_kernel_text(p->o.diff, kn, sizeof(kn)));
	} else {
		json_str(&js, "variant", sm_kernel_text(p->o.diff, kn, sizeof(kn)));
	}
	json_begin(&js, "cells", '[');
	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job *was = &old[i], *now = &p->jobs[i];
		if (!strcmp(verdict_of(was), verdict_of(now)))
			continue;
		const struct job *f = failing_side(was, now);
		json_begin(&js, NULL, '{');
		json_str(&js, "arch", sm_arch_name(now->scn->cfg.arch));
		json_str(&js, "reader", now->reader->name);
		json_str(&js, "scenario", now->scn_name);
		json_str(&js, "old_kernel", sm_kernel_text(old_kernel(p, now), kn,
		                                           sizeof(kn)));
		json_str(&js, "new_kernel", sm_kernel_text(now->scn->cfg.kernel, kn,
		                                           sizeof(kn)));
		json_str(&js, "old", verdict_of(was));
		json_str(&js, "new", verdict_of(now));
		json_bool(&js, "broke", broke(was, now));
		if (f) {
			json_str(&js, "failing", f == now ? "new" : "old");
			json_str(&js, "counterexample", f->min_line);
			json_str(&js, "detail", f->cell.res.detail);
		}
		json_end(&js, '{');
	}
	json_end(&js, '[');
	json_u64(&js, "compared", p->njobs);
	json_u64(&js, "changed", changed);
	json_u64(&js, "broke", nbroke);
	json_end(&js, '{');
	putchar('\n');
}

static void diff_table(const struct plan *p, const struct job *old,
                       unsigned changed, unsigned nbroke)
{
	char kn[256], from[256];

	if (p->o.diff_range)
		printf("kernel diff: %s -> ", sm_kernel_text(p->o.diff_from, from,
		                                            sizeof(from)));
	else
		printf("kernel diff: + ");
	printf("%s, %s engine, bound %u: %u of %u cells changed\n",
	       sm_kernel_text(p->o.diff, kn, sizeof(kn)),
	       sm_engine_name(p->o.engine), p->o.x.bound, changed, p->njobs);
	if (changed)
		printf("%-8s %-18s %-18s %-12s    %-12s\n", "arch", "reader",
		       "scenario", "old", "new");
	for (unsigned i = 0; i < p->njobs; i++) {
		const struct job *was = &old[i], *now = &p->jobs[i];
		char rb[SM_TABLE_COL + 1], sb[SM_TABLE_COL + 1];
		if (!strcmp(verdict_of(was), verdict_of(now)))
			continue;
		const struct job *f = failing_side(was, now);
		printf("%-8s %-18s %-18s %-12s -> %-12s%s\n",
		       sm_arch_name(now->scn->cfg.arch), sm_table_fit(now->reader->name, rb),
		       sm_table_fit(now->scn_name, sb), verdict_of(was), verdict_of(now),
		       broke(was, now) ? "   <-- BROKE" : "");
		if (f)
			printf("  %s fails: %s\n    %s\n", f == now ? "new" : "old",
			       f->min_line, f->cell.res.detail);
		else if (now->error[0] || was->error[0])
			printf("  %s\n", now->error[0] ? now->error : was->error);
	}
	printf("\n%u changed, %u broke (passed before, fail now)\n", changed,
	       nbroke);
}

/* Forget the results of every job for a second sweep. */
static void reset_jobs(struct plan *p)
{
	for (unsigned i = 0; i < p->njobs; i++) {
		struct job *j = &p->jobs[i];
		memset(&j->cell, 0, sizeof(j->cell));
		j->error[0] = j->trace[0] = '\0';
		j->min_line = j->found_line = NULL;
		j->seconds = 0;
		j->finished = false;
	}
	atomic_store(&p->exited, 0);
	atomic_store(&p->next, 0);
	atomic_store(&p->done, 0);
	atomic_store(&p->runs, 0);
}

/* The sweep was run on the old kernel: run it again on the new one (the
 * variant added, or B) and print the cells whose verdict changed.  Exit
 * status. */
int check_kernel_diff(struct plan *p)
{
	struct job *old = malloc(p->njobs * sizeof(*old));
	unsigned changed = 0, nbroke = 0, errors = 0;

	if (!old)
		return sm_error("check: out of memory");
	memcpy(old, p->jobs, p->njobs * sizeof(*old));
	reset_jobs(p);
	for (unsigned i = 0; i < p->nscn; i++)
		p->scn[i]->cfg.kernel = p->o.diff_range ? p->o.diff :
		                        p->scn[i]->cfg.kernel | p->o.diff;
	check_run_all(p);
	if (atomic_load(&p->stop)) { /* no diff of half a sweep */
		free(old);
		fprintf(stderr, "selfmon: check: interrupted by %s: no diff\n",
		        strsignal(p->signal));
		return 130;
	}
	int rc = check_lines(p) < 0 ? sm_error("check: out of memory") : 0;
	for (unsigned i = 0; i < p->njobs && !rc; i++) {
		changed += strcmp(verdict_of(&old[i]), verdict_of(&p->jobs[i])) != 0;
		nbroke += broke(&old[i], &p->jobs[i]);
		errors += old[i].error[0] || p->jobs[i].error[0];
	}
	if (!rc && p->o.json)
		diff_json(p, old, changed, nbroke);
	else if (!rc)
		diff_table(p, old, changed, nbroke);
	for (unsigned i = 0; i < p->njobs; i++) {
		free(old[i].min_line);
		free(old[i].found_line);
	}
	free(old);
	return rc ? rc : errors ? 2 : nbroke ? 1 : 0;
}
