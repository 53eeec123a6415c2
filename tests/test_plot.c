/*
 * test_plot.c — `selfmon plot`: the SVG is well-formed (xmllint), shows
 * what it should (lanes, a reader's verdict), renders in headless Chromium
 * to a screenshot that is far from blank, and bad input leaves no file.
 */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plot_renders),
		cmocka_unit_test(test_plot_passing_reader),
		cmocka_unit_test(test_plot_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
