/*
 * test_plot.c — `selfmon plot`: the SVG is well-formed (xmllint), shows
 * what it should (lanes, a reader's verdict), renders in headless Chromium
 * to a screenshot that is far from blank, and bad input leaves no file.
 * The picture agrees with the result `replay --explain --json` gives for
 * the same call (the field that is wrong and its offset, the relation's
 * two values, a FAULT's nothing returned), marks the timer's wrap where
 * the scenario's clock puts it, and labels each index one way.
 */
#include <inttypes.h>
#include <math.h>
#include <sys/stat.h>

#include "cli.h"

static char dir[] = "/tmp/selfmon-plotXXXXXX";

static bool have(const char *tool)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

static long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* A screenshot of `svg` by headless Chromium; its size, -1 on failure. */
static long screenshot(const char *svg, const char *png)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "timeout 120 chromium --headless --no-sandbox "
	         "--disable-gpu --disable-quic --no-first-run "
	         "--disable-background-networking --disable-component-update "
	         "--disable-sync --user-data-dir=%s/profile --screenshot=%s "
	         "--window-size=1100,900 file://%s >/dev/null 2>&1", dir, png, svg);
	if (system(cmd) != 0)
		return -1;
	return file_size(png);
}

static void test_plot_renders(void **state)
{
	char svg[256], png[256], blank_svg[256], blank_png[256], args[512];
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(svg, sizeof(svg), "%s/reset.svg", dir);
	snprintf(args, sizeof(args), "plot x86_reset --reader no_zero_ext_fix "
	         "--schedule reset@10 -o %s", svg);
	run(args);
	assert_int_equal(r.status, 0);
	char buf[1 << 16];
	FILE *f = fopen(svg, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	assert_non_null(strstr(buf, "<svg "));
	assert_non_null(strstr(buf, "true count"));
	assert_non_null(strstr(buf, ">instructions</text>"));
	assert_non_null(strstr(buf, ">page index</text>"));
	assert_non_null(strstr(buf, ">reset<"));
	assert_non_null(strstr(buf, ">reset (injected)<"));
	assert_non_null(strstr(buf, "WRONG_VALUE"));
	/* the ABI's notation, axes with units, a legend */
	assert_non_null(strstr(buf, "index 0x40000001: fixed counter 0 (rdpmc "
	                       "ECX 1&lt;&lt;30 | 0)"));
	assert_null(strstr(buf, "1073741825"));
	assert_non_null(strstr(buf, ">time: cycles since the scenario began"));
	assert_non_null(strstr(buf, " ns</text>"));
	assert_non_null(strstr(buf, ">legend</text>"));
	assert_non_null(strstr(buf, ">page update: reset</text>"));
	if (!have("xmllint") || !have("chromium")) {
		print_message("xmllint or chromium missing: rendering not checked\n");
		skip();
	}
	snprintf(args, sizeof(args), "xmllint --noout %s", svg);
	assert_int_equal(system(args), 0);
	/* non-blank: far larger than the screenshot of an empty white SVG */
	snprintf(blank_svg, sizeof(blank_svg), "%s/blank.svg", dir);
	f = fopen(blank_svg, "w");
	assert_non_null(f);
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1100\" "
	      "height=\"900\"><rect width=\"100%\" height=\"100%\" "
	      "fill=\"white\"/></svg>\n", f);
	fclose(f);
	snprintf(png, sizeof(png), "%s/reset.png", dir);
	snprintf(blank_png, sizeof(blank_png), "%s/blank.png", dir);
	long drawn = screenshot(svg, png), blank = screenshot(blank_svg, blank_png);
	assert_true(blank > 0);
	assert_true(drawn > 4 * blank);
	snprintf(args, sizeof(args), "rm -rf %s", dir);
	assert_int_equal(system(args), 0);
}

static void test_plot_passing_reader(void **state)
{
	char svg[512], args[700];
	(void)state;
	snprintf(svg, sizeof(svg), "%s/plot-ok.svg", tmpdir());
	snprintf(args, sizeof(args), "plot x86_multiplex --reader reference -o "
	         "%s", svg);
	run(args);
	assert_int_equal(r.status, 0);
	FILE *f = fopen(svg, "r");
	assert_non_null(f);
	char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	assert_non_null(strstr(buf, "reference, called at cycle 5,000"));
	assert_non_null(strstr(buf, ": PASS,"));
	assert_non_null(strstr(buf, ">l1d_misses</text>"));
	assert_non_null(strstr(buf, ">llc_misses</text>"));
	/* automatic rotations are kernel actions too, named */
	assert_non_null(strstr(buf, ">rotate</text>"));
	assert_non_null(strstr(buf, ">1: general counter 0</text>"));
	unlink(svg);
}

static void test_plot_bad_input(void **state)
{
	static const char *const bad[][2] = {
		{ "plot nosuch -o %s", "nosuch.scn: No such file" },
		{ "plot x86_reset --reader nosuch -o %s", "unknown reader 'nosuch'" },
		{ "plot x86_reset --schedule explode@3 -o %s",
		  "unknown action 'explode'" },
	};
	char none[512], args[700];
	(void)state;
	snprintf(none, sizeof(none), "%s/plot-none.svg", tmpdir());
	expect_usage_error("plot x86_reset", "needs SCENARIO and -o FILE.svg");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(args, sizeof(args), bad[i][0], none);
		expect_usage_error(args, bad[i][1]);
		assert_int_equal(file_size(none), -1);
	}
}


/* ---- the picture against the result ---------------------------------- */

static char svgbuf[1 << 20], json[1 << 20];

/* The number after "key": in the JSON text from (quoted or not). */
static bool json_num(const char *from, const char *key, uint64_t *v)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "\"%s\":", key);
	const char *p = strstr(from, pat);
	if (!p)
		return false;
	p += strlen(pat);
	*v = strtoull(p + (*p == '"'), NULL, 10);
	return true;
}

static void json_str(const char *from, const char *key, char *out, size_t n)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	const char *p = strstr(from, pat);
	assert_non_null(p);
	p += strlen(pat);
	snprintf(out, n, "%.*s", (int)strcspn(p, "\""), p);
}

/* The attribute name="..." of the element at el, as a number. */
static double attr(const char *el, const char *name)
{
	char pat[32];
	snprintf(pat, sizeof(pat), " %s=\"", name);
	const char *p = strstr(el, pat);
	const char *end = strchr(el, '>');
	assert_true(p && p < end);
	return strtod(p + strlen(pat), NULL);
}

/* Is there a <text> whose content contains want (XML-escaped as the
 * picture writes it)? */
static bool has_text(const char *want)
{
	char esc[600];
	size_t o = 0;
	for (const char *c = want; *c && o + 6 < sizeof(esc); c++)
		o += (size_t)snprintf(esc + o, sizeof(esc) - o, "%s", *c == '>'
		                      ? "&gt;" : *c == '<' ? "&lt;" : *c == '&'
		                      ? "&amp;" : (char[2]){ *c, 0 });
	for (const char *t = svgbuf; (t = strstr(t, "<text ")); t++) {
		const char *body = strchr(t, '>') + 1, *end = strstr(body, "</text>");
		const char *hit = strstr(body, esc);
		if (hit && hit < end)
			return true;
	}
	return false;
}

/* The largest y of the <polyline> just before the element at el: the
 * zoom's truth curve the returned value is drawn against. */
static double curve_bottom(const char *el)
{
	const char *pl = NULL;
	for (const char *t = svgbuf; (t = strstr(t, "<polyline")) && t < el; t++)
		pl = t;
	assert_non_null(pl);
	const char *pt = strstr(pl, "points=\"") + 8;
	double most = 0, x, y;
	int k;
	while (sscanf(pt, "%lf,%lf %n", &x, &y, &k) == 2) {
		most = y > most ? y : most;
		pt += k;
	}
	return most;
}

/* The plot of scn with `opts`, into svgbuf; the JSON of `sched`. */
static void plot_and_json(const char *opts, const char *sched)
{
	char path[512], args[800];
	snprintf(path, sizeof(path), "%s/agree.svg", tmpdir());
	snprintf(args, sizeof(args), "plot %s -o %s", opts, path);
	run(args);
	assert_int_equal(r.status, 0);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(svgbuf, 1, sizeof(svgbuf) - 1, f);
	svgbuf[n] = 0;
	fclose(f);
	snprintf(args, sizeof(args), "replay %s --explain --json", sched);
	run(args);
	assert_int_equal(r.status, 1);
	const char *res = strstr(r.out, "\"result\":");
	assert_non_null(res);
	snprintf(json, sizeof(json), "%s", res);
}

/* Each index's labels on its bars are one text. */
static void index_labels_agree(void)
{
	char idx[64][24], label[64][120];
	unsigned n = 0, labels = 0;
	for (const char *t = svgbuf; (t = strstr(t, "class=\"idx\"")); t++) {
		char i[24], l[120];
		assert_int_equal(sscanf(t, "class=\"idx\" data-index=\"%23[^\"]\">"
		                        "%119[^<]", i, l), 2);
		labels++;
		unsigned k = 0;
		while (k < n && strcmp(idx[k], i))
			k++;
		if (k == n && n < 64) {
			strcpy(idx[n], i);
			strcpy(label[n++], l);
		} else if (strcmp(label[k], l))
			fail_msg("index %s labelled '%s' and '%s'", i, label[k], l);
	}
	assert_true(labels > 0);
}

/* A value 2^k off the truth: named with its field, value and offset as
 * the result has them, drawn below (above) the truth's curve. */
static void offset_agrees(void)
{
	char field[32], side[16], want[200];
	uint64_t v, bits;
	const char *w = strstr(json, "\"wrong\":[{");
	assert_non_null(w);
	json_str(w, "field", field, sizeof(field));
	assert_true(json_num(w, "value", &v));
	assert_true(json_num(w, "offset_bits", &bits));
	json_str(w, "offset", side, sizeof(side));
	snprintf(want, sizeof(want), "returned %s %" PRIu64 " = 2^%" PRIu64
	         " %s the truth", field, v, bits, side);
	if (!has_text(want))
		fail_msg("no text '%s'", want);
	assert_null(strstr(svgbuf, "off the scale"));
	const char *line = strstr(svgbuf, "class=\"tl-returned\"");
	assert_non_null(line);
	double y = attr(line, "y1"), bottom = curve_bottom(line);
	if (!strcmp(side, "below") ? y <= bottom : y >= bottom)
		fail_msg("returned %s at y %.1f, the truth's lowest at %.1f", side,
		         y, bottom);
}

/* The x of time t on the axis whose "0" tick is the n-th one: from two
 * of its tick labels (text-anchor middle, same y). */
static double axis_x(unsigned nth, double t)
{
	const char *z = svgbuf;
	for (unsigned k = 0; k <= nth; k++, z++) {
		z = strstr(z, "text-anchor=\"middle\" fill=\"#444\" font-size=\"11\">"
		           "0</text>");
		assert_non_null(z);
	}
	while (strncmp(z, "<text ", 6))
		z--;
	double x0 = attr(z, "x"), y0 = attr(z, "y"), x1 = x0, t1 = 0;
	for (const char *q = z + 1; (q = strstr(q, "<text ")); q++) {
		if (attr(q, "y") != y0)
			break;
		char num[32], digits[32];
		size_t o = 0;
		sscanf(strchr(q, '>') + 1, "%31[0-9,]", num);
		for (char *c = num; *c; c++)
			if (*c != ',')
				digits[o++] = *c;
		digits[o] = 0;
		x1 = attr(q, "x");
		t1 = strtod(digits, NULL);
	}
	assert_true(t1 > 0);
	return x0 + (x1 - x0) * t / t1;
}

/* The wrap marker's x nearest want: |difference|. */
static double wrap_marker_off(double want)
{
	double best = 1e9;
	for (const char *l = svgbuf; (l = strstr(l, "class=\"tl-wrap\"")); l++)
		if (fabs(attr(l, "x1") - want) < best)
			best = fabs(attr(l, "x1") - want);
	return best;
}

static void test_plot_agrees_with_result(void **state)
{
	char want[300];
	uint64_t v, en, pc;
	(void)state;

	/* IOC_RESET: 2^48 below, drawn below */
	plot_and_json("x86_reset --reader no_zero_ext_fix --schedule reset@10",
	              "x86_64:unicorn:no_zero_ext_fix:x86_reset:reset@10");
	offset_agrees();
	index_labels_agree();
	/* a torn read: running > enabled, the two values against each other */
	plot_and_json("x86_remote --reader no_recheck --schedule "
	              "rotate_out@6,rotate_in@10",
	              "x86_64:unicorn:no_recheck:x86_remote:rotate_out@6,"
	              "rotate_in@10");
	const char *w = strstr(json, "\"wrong\":[{\"field\":\"running>enabled\"");
	assert_non_null(w);
	assert_true(json_num(w, "value", &v));
	assert_true(json_num(w, "enabled", &en));
	snprintf(want, sizeof(want), "running %" PRIu64 " > enabled %" PRIu64, v,
	         en);
	assert_true(has_text(want));
	snprintf(want, sizeof(want), "returned running %" PRIu64, v);
	assert_true(has_text(want));
	snprintf(want, sizeof(want), "returned enabled %" PRIu64, en);
	assert_true(has_text(want));
	const char *l1 = strstr(svgbuf, "class=\"tl-returned\"");
	assert_non_null(l1);
	const char *l2 = strstr(l1 + 1, "class=\"tl-returned\"");
	assert_non_null(l2);
	const char *run_l = strstr(l1, "#ff7f0e") < strchr(l1, '>') ? l1 : l2;
	const char *en_l = run_l == l1 ? l2 : l1;
	assert_true(attr(run_l, "y1") < attr(en_l, "y1")); /* running higher */
	index_labels_agree();
	/* a FAULT: nothing returned, where and what faulted */
	if (arch_built("riscv64")) {
		plot_and_json("riscv64_rotate --reader reference --schedule "
		              "rotate_out@18",
		              "riscv64:unicorn:reference:riscv64_rotate:rotate_out@18");
		assert_non_null(strstr(json, "\"verdict\":\"FAULT\""));
		assert_true(json_num(strstr(json, "\"fault\":"), "pc", &pc));
		assert_null(strstr(svgbuf, "class=\"tl-returned\""));
		assert_false(has_text("returned count"));
		assert_false(has_text("the reader returned"));
		assert_true(has_text("returned nothing"));
		snprintf(want, sizeof(want), "pc 0x%" PRIx64, pc);
		assert_true(has_text(want));
		assert_non_null(strstr(svgbuf, "class=\"tl-fault\""));
		index_labels_agree();
	}
	/* the timer wraps during the call: its marker where the scenario's
	 * clock puts it (2^width - start cycles in), on both axes */
	if (arch_built("arm64")) {
		plot_and_json("arm64_timer_wrap --reader no_time_mask",
		              "arm64:unicorn:no_time_mask:arm64_timer_wrap:-");
		offset_agrees();
		index_labels_agree();
		char scn[4096], path[600];
		snprintf(path, sizeof(path), "%s/traces/arm64_timer_wrap.scn",
		         SELFMON_SRC);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		scn[fread(scn, 1, sizeof(scn) - 1, f)] = 0;
		fclose(f);
		unsigned width, at;
		uint64_t start;
		const char *c = strstr(scn, "\nclock ");
		assert_non_null(c);
		assert_int_equal(sscanf(strstr(c, "width="), "width=%u", &width), 1);
		assert_int_equal(sscanf(strstr(c, "start="), "start=%" SCNx64,
		                        &start), 1);
		assert_int_equal(sscanf(strstr(scn, "check at="), "check at=%u",
		                        &at), 1);
		double wrap = (double)((1ull << width) - start);
		if (wrap_marker_off(axis_x(0, wrap)) > 0.5)
			fail_msg("no wrap marker at cycle %.0f", wrap);
		if (wrap_marker_off(axis_x(1, wrap - at)) > 0.5)
			fail_msg("no wrap marker at step %.0f of the call", wrap - at);
	}
}

/* Every action has every column of its row (model/config.c), and a plot
 * of each action the scenario takes draws it in a colour: lock_early had
 * none and its marks were written stroke="(null)". */
static void test_plot_every_action_coloured(void **state)
{
	(void)state; /* every action has a colour: test_enums */
	if (!arch_built("arm64")) { /* lock_early is arm64's and riscv64's */
		print_message("arm64 not built: skipped\n");
		skip();
	}
	char svg[256], args[512];
	static char buf[1 << 20];
	snprintf(svg, sizeof(svg), "%s/lock_early.svg", tmpdir());
	snprintf(args, sizeof(args), "plot arm64_remote --reader reference "
	         "--schedule lock_early@5 -o %s", svg);
	run(args);
	assert_int_equal(r.status, 0);
	slurp(svg, buf, sizeof(buf)); /* (empty if no file was written) */
	assert_non_null(strstr(buf, "lock_early"));
	assert_null(strstr(buf, "(null)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plot_renders),
		cmocka_unit_test(test_plot_every_action_coloured),
		cmocka_unit_test(test_plot_passing_reader),
		cmocka_unit_test(test_plot_bad_input),
		cmocka_unit_test(test_plot_agrees_with_result),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
