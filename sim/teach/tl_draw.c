/*
 * tl_draw.c — the drawing primitives of the timeline pictures (see
 * tl_draw.h): labels whose boxes are kept, grid lines broken around them,
 * the verdict's groups, axes, lane labels, the timer's wrap.
 *
 * Owns only how things are drawn; what is drawn is timeline.c's and
 * tl_zoom.c's.  It decides nothing about the kernel or the reader.
 */
#include <inttypes.h>
#include <string.h>

#include "markup.h"
#include "tl_draw.h"

const char *const tl_names[3] = { "count", "enabled", "running" };

const char tl_wrap_attr[] = " class=\"tl-wrap\" stroke-width=\"2\" "
                                "stroke-dasharray=\"6 3\"";

/* An estimate of s's width at size px in the browsers' sans-serif
 * (DejaVu Sans' advances, rounded up by class of character). */
double tl_text_w(const char *s, double size)
{
	double em = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c & 0xc0) == 0x80)
			continue; /* a UTF-8 tail */
		em += strchr("ijlI.,:;'|!()[] ", c) ? 0.40 : strchr("tfr", c) ? 0.44
		      : strchr("mwMW@%", c) ? 1.0 : c >= 'A' && c <= 'Z' ? 0.80
		      : 0.66;
	}
	return em * size;
}

/* size 12 unless small (11), with attributes attr (" class=..." or "");
 * its box kept, for the grid lines to pass around it. */
void tl_text_attr(struct tl *p, double x, double y, const char *anchor,
                      const char *color, bool small, const char *attr,
                      const char *s)
{
	double size = small ? 11 : 12, w = tl_text_w(s, size);
	double x0 = !strcmp(anchor, "end") ? x - w
	            : !strcmp(anchor, "middle") ? x - w / 2 : x;

	if (p->nbox < MAXBOX)
		p->box[p->nbox++] = (struct box){ x0 - 2, y - size - 1, x0 + w + 2,
		                                  y + size * 0.3 + 1 };
	else
		p->boxes_full = true;
	fprintf(p->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" "
	        "fill=\"%s\"%s%s>", x, y, anchor, color,
	        small ? " font-size=\"11\"" : "", attr);
	sm_xml_put(p->f, s);
	fputs("</text>\n", p->f);
}

void tl_text(struct tl *p, double x, double y, const char *anchor,
                 const char *color, bool small, const char *s)
{
	tl_text_attr(p, x, y, anchor, color, small, "", s);
}

/* A grid line, drawn under everything once every label is placed
 * (tl_grid_put()). */
void tl_grid_line(struct tl *p, double x0, double y0, double x1,
                      double y1, const char *color, const char *attr)
{
	if (p->ngrid < MAXGRID)
		p->grid[p->ngrid++] = (struct gridline){ x0, y0, x1, y1, color,
		                                         attr };
}

void tl_grid(struct tl *p, double x0, double y0, double x1, double y1,
                 const char *color)
{
	tl_grid_line(p, x0, y0, x1, y1, color, " class=\"grid\"");
}

/* Grid line g (vertical or horizontal) in pieces, broken at each label's
 * box it would cross; none at all when not every box is known. */
void tl_grid_put(FILE *f, const struct tl *p, const struct gridline *g)
{
	bool vert = g->x0 == g->x1;
	double a = vert ? g->y0 : g->x0, b = vert ? g->y1 : g->x1;
	double c = vert ? g->x0 : g->y0;

	if (p->boxes_full)
		return;
	while (a < b) {
		bool moved = true;
		double end = b;
		while (moved) { /* out of every box a lies in */
			moved = false;
			for (unsigned i = 0; i < p->nbox; i++) {
				const struct box *x = &p->box[i];
				double lo = vert ? x->y0 : x->x0, hi = vert ? x->y1 : x->x1;
				if (c >= (vert ? x->x0 : x->y0) &&
				    c <= (vert ? x->x1 : x->y1) && lo <= a && hi > a) {
					a = hi;
					moved = true;
				}
			}
		}
		for (unsigned i = 0; i < p->nbox && a < b; i++) {
			const struct box *x = &p->box[i];
			double lo = vert ? x->y0 : x->x0;
			if (c >= (vert ? x->x0 : x->y0) && c <= (vert ? x->x1 : x->y1) &&
			    lo > a && lo < end)
				end = lo;
		}
		if (a < b)
			fprintf(f, "<line%s x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			        "y2=\"%.1f\" stroke=\"%s\"/>\n", g->attr,
			        vert ? c : a, vert ? a : c, vert ? c : end,
			        vert ? end : c, g->color);
		a = end;
	}
}

/* Elements shown with the verdict (class tl-verdict) or, on the page,
 * before the reader has returned (tl-pending, hidden until page.js shows
 * it): the page shows the verdict only at the step the reader returns. */
void tl_group(struct tl *p, bool verdict)
{
	if (verdict)
		fputs("<g class=\"tl-verdict\">\n", p->f);
	else
		fputs("<g class=\"tl-pending\" style=\"display:none\">\n", p->f);
}

void tl_group_end(struct tl *p)
{
	fputs("</g>\n", p->f);
}

/* The groups drawn: on the page, the one before the reader returns
 * (0) and the verdict's (1); in a plain picture, the verdict's. */
int tl_first_group(const struct tl *p)
{
	return p->o->in_html ? 0 : 1;
}

/* s in lines of at most width px from (x, y), 15 px apart; the lines. */
unsigned tl_wrap(struct tl *p, double x, double y, double width,
                     const char *color, const char *s)
{
	size_t max = (size_t)(width / CW);
	unsigned lines = 0;
	char line[512];

	while (*s) {
		size_t len = strlen(s), cut = len;
		if (len > max) {
			for (cut = max; cut > 0 && s[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = max;
		}
		snprintf(line, sizeof(line), "%.*s", (int)(cut < 511 ? cut : 511), s);
		tl_text(p, x, y + 15 * lines++, "start", color, false, line);
		s += cut;
		while (*s == ' ')
			s++;
	}
	return lines;
}

/* 1234567 as "1,234,567". */
void tl_grouped(uint64_t v, char *buf, size_t n)
{
	char digits[32];
	size_t len = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, v), o = 0;

	for (size_t i = 0; i < len && o + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* A tick spacing of 1, 2 or 5 times a power of ten: at most max ticks. */
uint64_t tl_ticks(uint64_t range, uint64_t max)
{
	for (uint64_t p = 1;; p *= 10) {
		if (range / p <= max)
			return p;
		if (range / (2 * p) <= max)
			return 2 * p;
		if (range / (5 * p) <= max)
			return 5 * p;
		if (p > UINT64_MAX / 100)
			return UINT64_MAX;
	}
}

/* The widest tick label that still leaves the lane's name, at the left,
 * its room (in characters of the axis' small print). */
#define TICK_CHARS 10

/* A tick label for v in buf: grouped digits when they fit; else, from 0,
 * v as its digits times the largest power of 1000 that divides the
 * spacing st ("150e12"); else, from lo, v's offset from lo ("+20") but
 * lo itself in full, at the bottom, below the lane's name. */
static void tick_label(uint64_t v, uint64_t lo, uint64_t hi, uint64_t st,
                       char *buf, size_t n)
{
	char widest[32];
	tl_grouped(hi, widest, sizeof(widest));
	if (strlen(widest) <= TICK_CHARS) {
		tl_grouped(v, buf, n);
		return;
	}
	if (lo == 0) {
		unsigned e = 0;
		uint64_t d = 1;
		while (e < 18 && st % (d * 1000) == 0) {
			d *= 1000;
			e += 3;
		}
		if (e && v)
			snprintf(buf, n, "%" PRIu64 "e%u", v / d, e);
		else
			tl_grouped(v, buf, n);
		return;
	}
	if (v == lo)
		tl_grouped(v, buf, n);
	else
		snprintf(buf, n, "+%" PRIu64, v - lo);
}

/* A value axis at LEFT for [lo, hi] over the lane [y0, y0 + h], with
 * grid lines; unit after the top label; labels as tick_label() says. */
void tl_value_axis(struct tl *p, double y0, double h, uint64_t lo,
                       uint64_t hi, const char *unit)
{
	uint64_t st = tl_ticks(hi - lo, 4);
	char buf[48], num[32];

	fprintf(p->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
	        "stroke=\"#444\"/>\n", LEFT, y0, LEFT, y0 + h);
	for (uint64_t v = lo; v <= hi && v >= lo; v += st) {
		double y = y0 + h - h * (double)(v - lo) / (double)(hi - lo);
		tick_label(v, lo, hi, st, num, sizeof(num));
		snprintf(buf, sizeof(buf), "%s%s", num,
		         v + st > hi || v + st < v ? unit : "");
		tl_text(p, LEFT - 6, y + 4, "end", "#444", true, buf);
		tl_grid(p, LEFT, y, RIGHT, y, "#eee");
		if (v > UINT64_MAX - st)
			break;
	}
}

/* The lane's name at the left, on one or two lines. */
void tl_lane_label(struct tl *p, double y, const char *l1,
                       const char *l2)
{
	tl_text(p, 8, y, "start", "#000", false, l1);
	if (l2)
		tl_text(p, 8, y + 14, "start", "#555", true, l2);
}

/* A named mark in a lane of labels, its label in the first of nrows
 * rows (13 px apart from y) where it fits (rowend: where each row is
 * taken up to); no label when none has room. */
void tl_row_label(struct tl *p, double x, double y, const char *label,
                      const char *color, double *rowend, int nrows)
{
	double w = tl_text_w(label, 11) + 6;
	bool right = x + w > W - 8;  /* near the edge: label to the left */
	double lx = right ? x - w : x + 3;

	for (int r = 0; r < nrows; r++)
		if (rowend[r] <= lx) {
			tl_text(p, right ? x - 3 : x + 3, y + 13 * r,
			     right ? "end" : "start", color, true, label);
			rowend[r] = lx + w;
			return;
		}
}

uint64_t tl_truth_of(const struct sm_truth *t, int which)
{
	return which == 0 ? t->count : which == 1 ? t->enabled : t->running;
}

/* The first instant of the scenario at which the timer register wraps
 * to 0: arm64's CNTVCT_EL0 and riscv64's time CSR are timer_width bits
 * wide (sm_model_timer()), at start + t cycles at time t.  False when it
 * does not wrap within the scenario (x86's TSC is 64 bits from 0). */
bool tl_timer_wrap(const struct tl *p, uint64_t *at)
{
	const struct sm_config *c = &p->s->cfg;
	unsigned w = c->timer_width;

	if (c->arch == SM_X86_64 || w == 0 || w > 64)
		return false;
	uint64_t mask = w == 64 ? UINT64_MAX : (1ull << w) - 1;
	if (!(c->start & mask))
		return false; /* it starts at 0: the next wrap is 2^w away */
	*at = (~c->start & mask) + 1; /* 2^w - (start & mask) */
	return *at <= p->end;
}
