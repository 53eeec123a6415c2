/*
 * tl_draw.h — private to sim/teach: the state of a timeline picture
 * being drawn (struct tl) and the primitives its parts share
 * (tl_draw.c), for timeline.c (the lanes, legend, picture) and tl_zoom.c
 * (the call zoomed in).
 *
 * Owns nothing else; it decides nothing about the kernel or the reader.
 */
#ifndef SELFMON_TL_DRAW_H
#define SELFMON_TL_DRAW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "session.h"
#include "timeline.h"

#define NS 600          /* truth samples over the scenario */
#define MAXU 2048       /* page updates drawn */
#define MAXTRAP 512     /* observation points drawn */
#define W 1000          /* picture width */
#define LEFT 190        /* lane labels and value axes */
#define RIGHT 970       /* end of the plotting area */
#define CW 6.8          /* a character at 12 px, generously (tl_wrap) */
#define MAXBOX 4096     /* labels kept clear of the grid */
#define MAXGRID 256     /* grid lines */
#define MAXIDX 64       /* distinct page indexes labelled alike */

struct update {
	uint64_t at;
	int ev;
	uint32_t index;
	enum sm_action_kind why;
};

struct box {
	double x0, y0, x1, y1;
};

struct gridline {
	double x0, y0, x1, y1;
	const char *color, *attr;
};

/* One page index's label, the same on each of its bars: the widest form
 * that fits the narrowest bar that carries a label. */
struct idx_label {
	uint32_t index;
	double narrowest;
};

struct tl {
	const struct sm_scenario *s;
	const struct sm_timeline_opts *o;
	uint64_t end;
	struct sm_truth truth[NS + 1];
	uint64_t t[NS + 1];
	struct update u[MAXU];
	unsigned nu;
	/* the reader's call */
	bool have_call;
	uint64_t call_at, steps;
	uint64_t trap_step[MAXTRAP];
	unsigned ntrap;
	struct sm_truth call_truth[NS]; /* the truth over the call */
	int which;                /* the value zoomed: 0 count, 1 enabled, 2
	                           * running (the first found wrong) */
	int shown;                /* the returned value drawn over it: which,
	                           * or running over enabled's truth when
	                           * running > enabled */
	unsigned ncall;
	struct sm_result res;
	const struct sm_reader *reader;
	const struct sm_schedule *sched;
	/* drawing */
	FILE *f;
	double y;                 /* next free row */
	unsigned causes;          /* 1 << kind of every update drawn */
	struct box box[MAXBOX];   /* every label's box */
	unsigned nbox;
	bool boxes_full;
	struct gridline grid[MAXGRID];
	unsigned ngrid;
	struct idx_label idx[MAXIDX];
	unsigned nidx;
};

#define C_COUNT "#1f77b4"
#define C_ENABLED "#2ca02c"
#define C_RUNNING "#ff7f0e"
#define C_WRAP "#a50"

extern const char *const tl_names[3];     /* count, enabled, running */
extern const char tl_wrap_attr[];         /* the timer wrap's line */

/* Labels: drawn at (x, y) with their box kept so that grid lines pass
 * around them (size 12, or 11 when small; attr: " class=..." or ""). */
double tl_text_w(const char *s, double size);
void tl_text_attr(struct tl *p, double x, double y, const char *anchor,
                  const char *color, bool small, const char *attr,
                  const char *s);
void tl_text(struct tl *p, double x, double y, const char *anchor,
             const char *color, bool small, const char *s);
/* s in lines of at most width px from (x, y), 15 px apart; the lines. */
unsigned tl_wrap(struct tl *p, double x, double y, double width,
                 const char *color, const char *s);
/* A label in the first of nrows rows (13 px apart from y) where it fits. */
void tl_row_label(struct tl *p, double x, double y, const char *label,
                  const char *color, double *rowend, int nrows);
void tl_lane_label(struct tl *p, double y, const char *l1, const char *l2);

/* Grid lines (attr: their class), written under the picture at its end,
 * broken at every label (tl_grid_put()). */
void tl_grid_line(struct tl *p, double x0, double y0, double x1, double y1,
                  const char *color, const char *attr);
void tl_grid(struct tl *p, double x0, double y0, double x1, double y1,
             const char *color);
void tl_grid_put(FILE *f, const struct tl *p, const struct gridline *g);

/* The verdict's marks (verdict) or, on a page, those of a call still
 * running, grouped for page.js; the first group drawn (0 on a page). */
void tl_group(struct tl *p, bool verdict);
void tl_group_end(struct tl *p);
int tl_first_group(const struct tl *p);

void tl_grouped(uint64_t v, char *buf, size_t n); /* "1,234,567" */
uint64_t tl_ticks(uint64_t range, uint64_t max);
void tl_value_axis(struct tl *p, double y0, double h, uint64_t lo,
                   uint64_t hi, const char *unit);
uint64_t tl_truth_of(const struct sm_truth *t, int which);
/* The first instant at which the timer register wraps to 0, if within
 * the scenario. */
bool tl_timer_wrap(const struct tl *p, uint64_t *at);

/* What the zoom draws of the result, from its fields: the returned value
 * on the truth's scale (a PASS, a value the truth skipped or missed by
 * little or far), a value an exact power of two off the truth (drawn as
 * that offset: in a band below or above the truth's, at the truth's
 * level it is off from), the relation's two values against each other,
 * or a fault (nothing returned). */
enum tl_zmode { Z_NONE, Z_VALUE, Z_OFFSET, Z_RELATION, Z_FAULT };
enum tl_zmode tl_zmode(const struct sm_result *r);
/* The call zoomed in, from p->y on (col: the verdict's colour). */
void tl_zoom(struct tl *p, const char *col);

#endif
