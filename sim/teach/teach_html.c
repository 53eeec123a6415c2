/*
 * teach_html.c — the page to step through one read (see teach.h).
 *
 * Owns: the page's frame: a Content-Security-Policy that forbids every
 * request, the style and script (page.css, page.js, embedded at build
 * time), the timeline (timeline.c) inline, and the JSON document
 * (teach_json.c) inside a script element with every '<' escaped, so no
 * string in it can close the element.  The script renders everything
 * else from that document.
 */
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "markup.h"
#include "teach.h"
#include "timeline.h"

extern const char sm_teach_js[], sm_teach_css[];

static const char frame[] =
	"<header><h1 id=\"title\"></h1><p id=\"what\"></p>\n"
	"<p class=\"sched\">schedule <code id=\"schedule\"></code></p>\n"
	"<div id=\"fault\"></div>\n"
	"<p class=\"howto\">One call of the reader, run instruction by "
	"instruction against a model of the kernel, which may write the page "
	"before any of them.  The yellow line is the instruction about to run; "
	"<span class=\"k\">pink</span> fields are the ones the kernel wrote "
	"last (named with the action), <span class=\"l\">blue</span> the ones "
	"this instruction loads.  At the end: what the reader returned against "
	"the truth during the call.</p></header>\n"
	"<nav id=\"nav\">\n"
	"<button id=\"first\" title=\"first step (Home)\">|&#9664;</button>\n"
	"<button id=\"prev\" title=\"previous instruction (Left arrow)\">"
	"&#9664; previous</button>\n"
	"<button id=\"next\" title=\"next instruction (Right arrow)\">"
	"next &#9654;</button>\n"
	"<button id=\"next-kernel\" title=\"next kernel action (Down arrow)\">"
	"next kernel action</button>\n"
	"<button id=\"next-load\" title=\"next page load (Up arrow)\">"
	"next page load</button>\n"
	"<button id=\"last\" title=\"the end of the call (End)\">&#9654;|</button>\n"
	"<input type=\"range\" id=\"slider\" min=\"0\" max=\"0\" value=\"0\" "
	"aria-label=\"step\">\n"
	"<span id=\"where\">step <b id=\"stepno\">0</b> of <span id=\"nsteps\">"
	"</span></span>\n"
	"<p class=\"keys\">keys: &larr; &rarr; instruction, &darr; next kernel "
	"action, &uarr; next page load, Home, End; the address of this page "
	"names the step (#step=N)</p>\n"
	"</nav>\n"
	"<main>\n"
	"<section id=\"code-panel\"><h2>The reader's instructions</h2>\n"
	"<div id=\"code\"></div></section>\n"
	"<section id=\"page-panel\"><h2>The page, as the next load would see "
	"it</h2>\n<p id=\"kernel-now\"></p><div id=\"stores\"></div>\n"
	"<table id=\"page\"></table></section>\n"
	"<section id=\"kstate-panel\"><h2>The kernel's state the page does "
	"not show</h2>\n<p id=\"kstate-now\"></p>\n"
	"<table id=\"kstate\"></table></section>\n"
	"<section id=\"regs-panel\"><h2>What the reader has loaded so far</h2>\n"
	"<table id=\"regs\"></table></section>\n"
	"<section id=\"result-panel\"><h2>What it returned</h2>\n"
	"<div id=\"result\"></div></section>\n"
	"</main>\n";

/* The document with every '<' as \u003c: JSON allows it only inside
 * strings, where the escape means the same. */
static int data(FILE *f, const struct sm_teach *t, char *err, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return snprintf(err, n, "out of memory"), -1;
	sm_teach_json(m, t);
	if (fclose(m) != 0 || !buf) {
		free(buf);
		return snprintf(err, n, "out of memory"), -1;
	}
	fputs("<script type=\"application/json\" id=\"selfmon-data\">", f);
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '<')
			fputs("\\u003c", f);
		else
			fputc(buf[i], f);
	fputs("</script>\n", f);
	free(buf);
	return 0;
}

static void head(FILE *f, const struct sm_teach *t)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
	      "'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, "
	      "initial-scale=1\">\n<title>selfmon: ", f);
	sm_xml_put(f, t->s->reader->name);
	fputs(" in ", f);
	sm_xml_put(f, t->scenario);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", sm_teach_css);
	fputs("<noscript><p>This page renders with JavaScript; the data are in "
	      "it as JSON (selfmon replay --explain --json prints the same)."
	      "</p></noscript>\n", f);
}

int sm_teach_html(FILE *f, const struct sm_teach *t, char *err, size_t n)
{
	struct sm_timeline_opts to = { .in_html = true };
	struct sm_timeline_call call = { .reader = t->s->reader,
	                                 .engine = t->s->engine,
	                                 .sched = t->sched };

	head(f, t);
	fputs(frame, f);
	fputs("<section id=\"timeline-panel\"><h2>The timeline</h2>\n", f);
	if (sm_timeline_svg(f, t->s->scn, &call, &to, err, n) < 0)
		return -1;
	fputs("</section>\n", f);
	if (data(f, t, err, n) < 0)
		return -1;
	fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", sm_teach_js);
	return 0;
}

int sm_teach_html_probe(const char *path, char *err, size_t n)
{
	struct sm_out o;

	if (sm_out_open(&o, path, err, n) < 0)
		return -1;
	sm_out_abort(&o);
	return 0;
}

int sm_teach_html_file(const char *path, const struct sm_teach *t, char *err,
                       size_t n)
{
	struct sm_out o;

	if (sm_out_open(&o, path, err, n) < 0)
		return -1;
	if (sm_teach_html(o.f, t, err, n) < 0) {
		sm_out_abort(&o);
		return -1;
	}
	return sm_out_close(&o, err, n);
}
