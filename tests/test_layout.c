/*
 * test_layout.c — the layout of the page to step through a read
 * (`replay --html`), measured in headless Chromium at the widths people
 * read it at: 1024, 1400 and 1920 px, and 800 px where the panes stack.
 *
 * The test copies a page and appends a small script (the shipped page has
 * no test code) that writes the layout's figures into the DOM, dumped
 * with --dump-dom: the document's scroll width against the viewport,
 * every element (or text) that runs past the viewport, every pane that
 * scrolls sideways and every element cut by one, the boxes of the code
 * pane and the page pane, the listing's box, and the first scroll position
 * that shows the listing and the result together.  From those: no
 * horizontal overflow, nothing cut (the "meaning" column, the
 * kernel-action lines), code and page side by side from 1024 px up, the
 * listing as high as the viewport allows and in view beside the result.
 * Without chromium it skips, saying so.
 */
#include <stdarg.h>

#include "cli.h"

#define RESET "x86_64:unicorn:no_zero_ext_fix:x86_reset:reset@10"
#define TORN "x86_64:unicorn:no_recheck:x86_remote:rotate_out@6,rotate_in@10"

/* Appended to a copy of the page, after page.js: the figures, one
 * "name numbers..." line each, into <pre id="layout">. */
static const char measure[] =
	"<script>(function () {\n"
	"const de = document.documentElement, vw = de.clientWidth, "
	"vh = innerHeight;\n"
	"const nm = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +\n"
	"  (typeof e.className === 'string' && e.className.trim() ?\n"
	"   '.' + e.className.trim().split(/\\s+/).join('.') : '');\n"
	"const clips = (e) => getComputedStyle(e).overflowX !== 'visible';\n"
	"const box = (id) => document.getElementById(id).getBoundingClientRect();\n"
	"const R = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round)"
	".join(' ');\n"
	/* the right edge of an element or of what runs out of it (a line of
	 * white-space: pre); spaces that hang at a wrap do not count */
	"const right = (e) => { const b = e.getBoundingClientRect();\n"
	"  return e instanceof HTMLElement ? Math.max(b.right, b.left + "
	"e.scrollWidth) : b.right; };\n"
	"const past = [], scroll = [], cut = [];\n"
	"for (const e of document.body.querySelectorAll('*')) {\n"
	"  const b = e.getBoundingClientRect();\n"
	"  if (!b.width && !b.height) continue;\n"
	"  const x = right(e);\n"
	"  if (x > vw + 1) past.push(nm(e) + '@' + Math.round(x));\n"
	"  if (e instanceof HTMLElement && clips(e) && "
	"e.scrollWidth > e.clientWidth + 1)\n"
	"    scroll.push(nm(e) + ' ' + e.scrollWidth + ' in ' + e.clientWidth);\n"
	"  for (let a = e.parentElement; a && a !== document.body; "
	"a = a.parentElement)\n"
	"    if (clips(a)) {\n"
	"      const c = a.getBoundingClientRect().left + a.clientLeft + "
	"a.clientWidth;\n"
	"      if (x > c + 1) cut.push(nm(e) + '@' + Math.round(x) + ' out of ' + "
	"nm(a));\n"
	"      break;\n"
	"    }\n"
	"}\n"
	"const q = (s) => document.querySelectorAll(s);\n"
	"const notes = [...q('#page td.note')].filter((t) => t.textContent)"
	".length;\n"
	"const o = ['viewport ' + vw + ' ' + vh,\n"
	"  'doc ' + de.scrollWidth + ' ' + de.clientWidth,\n"
	"  'code ' + R(box('code-panel')), 'page ' + R(box('page-panel')),\n"
	"  'listing ' + R(box('code')),\n"
	"  'cursor ' + R(q('#code .row.cur.insn')[0].getBoundingClientRect()),\n"
	/* kernel lines in the listing's view, "meaning" cells filled */
	"  'shown ' + [...q('#code .row.kern')].filter((k) => {\n"
	"    const r = k.getBoundingClientRect(), c = box('code');\n"
	"    return r.bottom > c.top && r.top < c.bottom; }).length + ' ' + "
	"notes,\n"
	"  'past ' + past.length + ' ' + past.join(' '),\n"
	"  'scroll ' + scroll.length + ' ' + scroll.join(' '),\n"
	"  'cut ' + cut.length + ' ' + cut.join(' ')];\n"
	/* the first scroll position with the listing and the last panel
	 * (the result) wholly in view, below the navigation */
	"const last = [...q('main > section')].pop();\n"
	"const seen = (r) => r.top >= box('nav').bottom - 1 && r.bottom <= vh + 1;\n"
	"let at = -1;\n"
	"for (let y = 0; at < 0 && y < de.scrollHeight; y += 10) {\n"
	"  scrollTo(0, y);\n"
	"  if (seen(box('code')) && seen(last.getBoundingClientRect()))\n"
	"    at = scrollY;\n"
	"}\n"
	"o.push('together ' + Math.round(at) + ' ' + nm(last));\n"
	"scrollTo(0, 0);\n"
	"const p = document.createElement('pre');\n"
	"p.id = 'layout';\n"
	"p.textContent = o.join('\\n') + '\\n';\n"
	"document.body.appendChild(p);\n"
	"})();</script>\n";

static char page[1 << 22];
static char dom[1 << 23];

static bool have_chromium(void)
{
	return system("command -v chromium >/dev/null 2>&1") == 0;
}

/* The page `replay SCHED --html` makes, copied with the measuring script
 * to tmpdir()/m-NAME.html (its path into copy). */
static void make_pages(const char *sched, const char *name, char *copy,
                       size_t n)
{
	char html[512], args[900];
	snprintf(html, sizeof(html), "%s/%s.html", tmpdir(), name);
	snprintf(args, sizeof(args), "replay %s --html %s", sched, html);
	run(args);
	assert_int_equal(r.status, 1); /* both reads fail: WRONG_VALUE */
	slurp(html, page, sizeof(page));
	assert_true(strlen(page) < sizeof(page) - 1);
	assert_null(strstr(page, "id=\"layout\"")); /* no test code shipped */
	char *end = NULL;
	for (char *p = page; (p = strstr(p, "</body>")); p++)
		end = p;
	assert_non_null(end);
	snprintf(copy, n, "%s/m-%s.html", tmpdir(), name);
	FILE *f = fopen(copy, "w");
	assert_non_null(f);
	fwrite(page, 1, (size_t)(end - page), f);
	fputs(measure, f);
	fputs(end, f);
	assert_int_equal(fclose(f), 0);
}

/* The figures of the page at #step=STEP in a W x H window. */
struct figs {
	int vw, vh, doc_sw, doc_cw;
	int code[4], page[4], listing[4], cursor[4]; /* left top right bottom */
	int kern, notes, past, scroll, cut;
	int together; /* scrolled by this, listing and result in view; or -1 */
	const char *text;
};

static const char *line(const char *text, const char *name)
{
	char pat[40];
	snprintf(pat, sizeof(pat), "\n%s ", name);
	const char *p = strstr(text, pat);
	if (!p)
		fail_msg("no '%s' in the figures: %.400s", name, text);
	return p + strlen(pat);
}

static void measure_at(const char *copy, unsigned step, int w, int h,
                       struct figs *f)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "timeout 120 chromium --headless --no-sandbox "
	         "--disable-gpu --disable-quic --no-first-run "
	         "--disable-background-networking --disable-component-update "
	         "--disable-sync --user-data-dir=%s/profile --window-size=%d,%d "
	         "--dump-dom 'file://%s#step=%u' 2>/dev/null", tmpdir(), w, h,
	         copy, step);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t n = fread(dom, 1, sizeof(dom) - 1, p);
	dom[n] = '\0';
	assert_int_equal(pclose(p), 0);
	char want[64];
	snprintf(want, sizeof(want), "<b id=\"stepno\">%u</b>", step);
	if (!strstr(dom, want))
		fail_msg("the page at %dx%d is not at step %u", w, h, step);
	char *t = strstr(dom, "<pre id=\"layout\">");
	if (!t)
		fail_msg("no figures from the page at %dx%d", w, h);
	t += strlen("<pre id=\"layout\">") - 1;
	*t = '\n'; /* so that every line starts with one */
	char *end = strstr(t, "</pre>");
	assert_non_null(end);
	*end = '\0';
	memset(f, 0, sizeof(*f));
	f->text = t + 1;
	assert_int_equal(sscanf(line(t, "viewport"), "%d %d", &f->vw, &f->vh), 2);
	assert_int_equal(sscanf(line(t, "doc"), "%d %d", &f->doc_sw, &f->doc_cw), 2);
	int *boxes[] = { f->code, f->page, f->listing, f->cursor };
	const char *names[] = { "code", "page", "listing", "cursor" };
	for (int i = 0; i < 4; i++)
		assert_int_equal(sscanf(line(t, names[i]), "%d %d %d %d", &boxes[i][0],
		                        &boxes[i][1], &boxes[i][2], &boxes[i][3]), 4);
	assert_int_equal(sscanf(line(t, "shown"), "%d %d", &f->kern, &f->notes), 2);
	assert_int_equal(sscanf(line(t, "past"), "%d", &f->past), 1);
	assert_int_equal(sscanf(line(t, "scroll"), "%d", &f->scroll), 1);
	assert_int_equal(sscanf(line(t, "cut"), "%d", &f->cut), 1);
	assert_int_equal(sscanf(line(t, "together"), "%d", &f->together), 1);
	/* the window really is as wide as asked (less a scroll bar) */
	assert_true(f->vw > w - 40 && f->vw <= w);
	print_message("%dx%d step %u: doc %d/%d, code %d..%d page %d..%d, "
	              "listing %d high of %d (%d kernel lines in view), with the "
	              "result at scroll %d\n", w, h, step, f->doc_sw, f->doc_cw,
	              f->code[0], f->code[2], f->page[0], f->page[2],
	              f->listing[3] - f->listing[1], f->vh, f->kern, f->together);
}

/* What is wrong, across the widths of one test, said at its end. */
static char why[1 << 14];

static void problem(const char *fmt, ...)
{
	size_t n = strlen(why);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why + n, sizeof(why) - n, fmt, ap);
	va_end(ap);
}

static void no_problems(void)
{
	static char said[sizeof(why)];
	memcpy(said, why, sizeof(why));
	why[0] = '\0';
	if (said[0]) {
		fputs(said, stdout); /* cmocka's messages are short */
		fflush(stdout);
		fail_msg("the layout is wrong (above)");
	}
}

/* Nothing runs past the viewport, no pane scrolls sideways, nothing is
 * cut by one. */
static void expect_no_overflow(const struct figs *f)
{
	if (f->doc_sw > f->doc_cw || f->past || f->scroll || f->cut) {
		problem("overflow at width %d: document %d of %d px\n", f->vw,
		        f->doc_sw, f->doc_cw);
		static const char *const lists[] = { "past", "scroll", "cut" };
		for (size_t i = 0; i < 3; i++) {
			const char *l = line(f->text - 1, lists[i]);
			int len = (int)strcspn(l, "\n");
			problem("  %s %.*s%s\n", lists[i], len < 200 ? len : 200, l,
			        len > 200 ? "..." : "");
		}
	}
}

/* The current instruction's line in view as the page opens at the step:
 * inside the listing's box and the viewport. */
static void expect_cursor_seen(const struct figs *f)
{
	int bottom = f->listing[3] < f->vh ? f->listing[3] : f->vh;
	if (f->cursor[1] < f->listing[1] || f->cursor[3] > bottom)
		problem("at width %d the current line is at %d..%d, out of view "
		        "(listing %d..%d, viewport %d)\n", f->vw, f->cursor[1],
		        f->cursor[3], f->listing[1], f->listing[3], f->vh);
}

/* Code and page side by side: apart horizontally, overlapping
 * vertically; the listing at least 60% of the viewport high and no
 * higher than it; and some scroll position shows the whole listing and
 * the whole of the last panel (the result) below the navigation. */
static void expect_side_by_side(const struct figs *f)
{
	bool apart = f->code[2] <= f->page[0] || f->page[2] <= f->code[0];
	bool overlap = f->code[1] < f->page[3] && f->page[1] < f->code[3];
	if (!apart || !overlap)
		problem("code %d %d %d %d and page %d %d %d %d not side by side at "
		        "width %d\n", f->code[0], f->code[1], f->code[2], f->code[3],
		        f->page[0], f->page[1], f->page[2], f->page[3], f->vw);
	int high = f->listing[3] - f->listing[1];
	if (high * 10 < f->vh * 6 || high > f->vh)
		problem("at width %d the listing is %d px high in a viewport of %d\n",
		        f->vw, high, f->vh);
	if (f->together < 0)
		problem("at width %d, no scroll shows the listing and the result "
		        "together\n", f->vw);
}

static void need_chromium(void)
{
	if (!have_chromium()) {
		print_message("chromium missing: the layout is not measured\n");
		skip();
	}
}

static const int widths[] = { 1024, 1400, 1920 };

/* The step of the JSON document's last {"step":N,...}. */
static unsigned last_step(const char *json)
{
	const char *last = NULL;
	for (const char *p = json; (p = strstr(p, "{\"step\":")); p++)
		last = p;
	assert_non_null(last);
	return (unsigned)strtoul(last + 8, NULL, 10);
}

/* At each width, the page at step: at least kern kernel lines in the
 * listing's view and three meanings, want in the page (unless NULL); no
 * overflow; code and page side by side. */
static void at_widths(const char *copy, unsigned step, int kern,
                      const char *want)
{
	struct figs f;
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		measure_at(copy, step, widths[i], 900, &f);
		if (f.kern < kern || f.notes < 3)
			fail_msg("step %u shows %d kernel lines, %d meanings", step,
			         f.kern, f.notes);
		if (want && !strstr(dom, want))
			fail_msg("no %s at step %u", want, step);
		expect_no_overflow(&f);
		expect_side_by_side(&f);
		expect_cursor_seen(&f);
	}
}

/* At the reset (step 10): its kernel-action line, the "meaning" column
 * filled; and at the end, with the verdict and the returned values
 * against the truth. */
static void test_layout_reset(void **state)
{
	char copy[512];
	(void)state;
	run("replay " RESET " --explain --json");
	assert_int_equal(r.status, 1);
	unsigned end = last_step(r.out);
	assert_true(end > 10);
	make_pages(RESET, "reset", copy, sizeof(copy));
	need_chromium();
	at_widths(copy, 10, 1, NULL);
	at_widths(copy, end, 0, "id=\"verdict\">WRONG_VALUE</p>");
	no_problems();
}

/* A remote writer, half way through its update: many kernel lines (one
 * per store), the "written by" column naming the store. */
static void test_layout_torn(void **state)
{
	char copy[512];
	(void)state;
	run("replay " TORN " --explain --json");
	assert_int_equal(r.status, 1);
	/* the step where a store of the remote writer first changes index */
	const char *idx = strstr(r.out, "{\"store\":\"index\",\"changes\":[[");
	assert_non_null(idx);
	const char *st = idx;
	while (st > r.out && strncmp(st, "{\"step\":", 8))
		st--;
	unsigned step = (unsigned)strtoul(st + 8, NULL, 10);
	make_pages(TORN, "torn", copy, sizeof(copy));
	need_chromium();
	at_widths(copy, step, 4, "data-by=\"remote store ");
	no_problems();
}

/* The listing's height follows the viewport's (a taller window, a
 * higher listing); below ~900 px the panes stack, still without
 * overflow. */
static void test_layout_height_and_narrow(void **state)
{
	char copy[512];
	struct figs lo, hi, narrow;
	(void)state;
	make_pages(RESET, "reset", copy, sizeof(copy));
	need_chromium();
	measure_at(copy, 10, 1400, 900, &lo);
	measure_at(copy, 10, 1400, 1300, &hi);
	expect_side_by_side(&hi);
	int dv = hi.vh - lo.vh;
	int dl = (hi.listing[3] - hi.listing[1]) - (lo.listing[3] - lo.listing[1]);
	if (dl < dv * 8 / 10)
		problem("viewport %d px higher, the listing only %d px\n", dv, dl);
	measure_at(copy, 10, 800, 900, &narrow);
	expect_no_overflow(&narrow);
	expect_cursor_seen(&narrow);
	if (narrow.page[1] < narrow.code[3])
		problem("at 800 px the panes do not stack: %.300s\n", narrow.text);
	no_problems();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_reset),
		cmocka_unit_test(test_layout_torn),
		cmocka_unit_test(test_layout_height_and_narrow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
