/*
 * test_inputs.c — untrusted input, contained: every input the command
 * reads (scenario, trace, schedule, ELF, option) that could hang it, make
 * it work without bound, crash it or clobber what it writes over, each
 * answered with one line and exit 2 (or written safely).  Everything runs
 * in a private temporary directory.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli.h"
#include "commands.h"

/* sysconf as this process sees it: the CPU count can be made larger than
 * this machine's, for check's default -j. */
extern long __sysconf(int name);
static long fake_cpus;
long sysconf(int name)
{
	if (name == _SC_NPROCESSORS_ONLN && fake_cpus)
		return fake_cpus;
	return __sysconf(name);
}

static char dir[] = "/tmp/selfmon-hostileXXXXXX";
static char path[8192], args[16384];

static const char *in_dir(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void write_text(const char *name, const char *text)
{
	FILE *f = fopen(in_dir(name), "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[256];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* One usage error with the path of `name` in the private directory
 * substituted for %s in fmt. */
static void expect_error_on(const char *fmt, const char *name,
                            const char *msg)
{
	snprintf(args, sizeof(args), fmt, in_dir(name));
	expect_usage_error(args, msg);
}

/* A FIFO with no writer: every input is opened without blocking and
 * refused, it is not a regular file. */
static void test_fifo_inputs(void **state)
{
	(void)state;
	assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
	const char *msg = "fifo: not a regular file (a FIFO)";
	expect_error_on("model %s", "fifo", msg);
	expect_error_on("model --compare %s", "fifo", msg);
	expect_error_on("replay %s", "fifo", msg);
	expect_error_on("check reference --scenario %s --no-traces", "fifo", msg);
	expect_error_on("plot %s -o /dev/null", "fifo", msg);
	expect_error_on("check %s:fn --abi values --no-traces", "fifo", msg);
}

/* A device that never ends. */
static void test_endless_inputs(void **state)
{
	(void)state;
	const char *msg = "/dev/zero: not a regular file (a character device)";
	expect_usage_error("model --compare /dev/zero", msg);
	expect_usage_error("replay /dev/zero", msg);
	expect_usage_error("model /dev/zero", msg);
}

/* A regular file over the cap is refused before it is read. */
static void test_oversized_inputs(void **state)
{
	(void)state;
	int fd = open(in_dir("big.trace"), O_CREAT | O_WRONLY | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (16 << 20) + 1), 0); /* sparse */
	close(fd);
	const char *msg = "file too large (over the cap of 16 MiB)";
	expect_error_on("model --compare %s", "big.trace", msg);
	expect_error_on("replay %s", "big.trace", msg);
}

/* Names are refused at the door when they hold what a text output cannot
 * carry as it is (a newline that would add a line to a trace, so that
 * replay ran another reader; "\n::warning::" in a CI log; an escape
 * sequence; bytes that are not UTF-8, C1 controls or U+FFFE, which break
 * the JSON, the JUnit XML and the TAP YAML), and so are a ':' in a
 * reader's path and a --traces directory of the same kind: one line,
 * exit 2, nothing written. */
static void test_names_refused(void **state)
{
	static const char *const bad[] = {
		"a\n::warning::x", "a\033]0;title\007", "a\377", "a\302\205",
		"a\357\277\276", "a\355\240\200",
	};
	char good[64], cex[64], bad_path[256], cmd[1024];
	(void)state;
	snprintf(good, sizeof(good), "%s/good.o", dir);
	snprintf(cex, sizeof(cex), "%s/cex", dir);
	snprintf(cmd, sizeof(cmd), "cc -c -O2 -I'%s/model' -I'%s/reader' "
	         "'%s/reader/variants/no_sext.c' -o '%s'", SELFMON_SRC,
	         SELFMON_SRC, SELFMON_SRC, good);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(bad_path, sizeof(bad_path), "%s/%s.o", dir, bad[i]);
		assert_int_equal(link(good, bad_path), 0);
		snprintf(args, sizeof(args), "check '%s:selfmon_v_no_sext' --abi "
		         "values --scenario x86_pinned --traces '%s'", bad_path, cex);
		expect_usage_error(args, "(a reader's name goes into every report");
		snprintf(bad_path, sizeof(bad_path), "%s/%s.scn", dir, bad[i]);
		snprintf(cmd, sizeof(cmd), "cp '%s/traces/x86_pinned.scn' '%s'",
		         SELFMON_SRC, bad_path);
		assert_int_equal(system(cmd), 0);
		snprintf(args, sizeof(args), "check no_sext --scenario '%s' "
		         "--traces '%s'", bad_path, cex);
		expect_usage_error(args, "bad scenario name");
		snprintf(args, sizeof(args), "check no_sext --scenario x86_pinned "
		         "--traces '%s/%s'", dir, bad[i]);
		expect_usage_error(args, "bad --traces");
	}
	assert_int_equal(mkdir(in_dir("a:b"), 0700), 0);
	snprintf(bad_path, sizeof(bad_path), "%s/a:b/r.o", dir);
	assert_int_equal(link(good, bad_path), 0);
	snprintf(args, sizeof(args), "check '%s:selfmon_v_no_sext' --abi values "
	         "--scenario x86_pinned --no-traces", bad_path);
	expect_usage_error(args, "':' is not allowed in the PATH");
	assert_int_equal(access(cex, F_OK), -1); /* nothing written */
	/* Slurm's job id reaches stderr only when it is Slurm's number */
	static const char *const slurm[][2] = {
		{ "SLURM_ARRAY_TASK_ID", "0" }, { "SLURM_ARRAY_TASK_MIN", "0" },
		{ "SLURM_ARRAY_TASK_MAX", "0" }, { "SLURM_ARRAY_TASK_COUNT", "1" },
		{ "SLURM_ARRAY_JOB_ID", "7\033]0;x\007" },
	};
	for (size_t i = 0; i < 5; i++)
		setenv(slurm[i][0], slurm[i][1], 1);
	run("check reference --arch x86_64 --scenario x86_pinned --no-traces "
	    "--shard auto");
	for (size_t i = 0; i < 5; i++)
		unsetenv(slurm[i][0]);
	assert_non_null(strstr(r.err, "--shard auto: shard 0/1"));
	assert_null(strchr(r.err, '\033'));
}

/* Combinations check refuses are refused by replay too, and an action
 * the arch does not have is refused by --actions as by the scenario's
 * explore= (it used to be reported as injected over one schedule, a
 * vacuous PASS; and replay ran native on a remote writer into LIVELOCK). */
static void test_inapplicable_refused(void **state)
{
	(void)state;
	expect_usage_error("replay x86_64:native:reference:x86_remote:-",
	                   "the native engine runs local-writer scenarios only");
	expect_usage_error("check reference --arch x86_64 --scenario x86_pinned "
	                   "--actions lock_early --no-traces",
	                   "--actions lock_early does not apply to x86_64");
	expect_usage_error("check reference --scenario x86_pinned "
	                   "--actions reset,clock_epoch --no-traces",
	                   "--actions clock_epoch does not apply to x86_64");
	if (arch_built("arm64")) {
		run("check reference --arch arm64 --scenario arm64_remote "
		    "--actions lock_early --no-traces");
		assert_int_not_equal(r.status, 2); /* runs: arm64 has it */
		assert_non_null(strstr(r.out, "kernel actions injected: lock_early"));
	}
}

/* Names and text with control bytes stay on one line, escaped. */
static void test_control_bytes(void **state)
{
	(void)state;
	expect_usage_error("model \"$(printf 'no\\033[31mred\\nsuch.scn')\"",
	                   "no?[31mred?such.scn: bad scenario name: control "
	                   "character U+001B at byte 2");
	expect_usage_error("replay \"$(printf 'x86_64:unicorn:reference:"
	                   "x86_reset:reset@1\\nreset@2')\"",
	                   "bad step '1?reset@2'");
	write_text("esc.trace", "arch x86_64\nevent task-clock software\n"
	           "at 1 mark task-\033]0;title\007clock lock=0\n");
	expect_error_on("model --compare %s", "esc.trace",
	                "esc.trace:3:16: control character in a trace line");
	/* a file name with an escape sequence: the report shows it escaped */
	char cmd[16384];
	snprintf(cmd, sizeof(cmd), "cp '%s/traces/hw/swevents.trace' '%s'",
	         SELFMON_SRC, in_dir("t\033[2Jx.trace"));
	assert_int_equal(system(cmd), 0);
	snprintf(args, sizeof(args), "model --compare \"%s\"",
	         in_dir("t\033[2Jx.trace"));
	run(args);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "t?[2Jx.trace"));
	assert_null(strchr(r.out, '\033'));
}

static void test_explain_bug_without_name(void **state)
{
	(void)state;
	expect_usage_error("explain-bug", "explain-bug: missing NAME");
}

/* The bundled hw trace with its switch counts raised by `add` from the
 * line holding `from` on; written to `name`. */
static void edited_trace(const char *name, const char *from, unsigned long add)
{
	char line[1024];
	FILE *in = fopen(SELFMON_SRC "/traces/hw/swevents.trace", "r");
	FILE *out = fopen(in_dir(name), "w");
	bool on = false;
	assert_non_null(in);
	assert_non_null(out);
	while (fgets(line, sizeof(line), in)) {
		char *c = strstr(line, " count=");
		on |= strstr(line, from) != NULL;
		if (on && c && strstr(line, " switches "))
			snprintf(c, 64, " count=%lu\n", strtoul(c + 7, NULL, 10) + add);
		fputs(line, out);
	}
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

/* A switch count that jumps is a hostile trace: one line, at once (it was
 * replayed as up to 100,000 preemptions per line). */
static void test_trace_switch_caps(void **state)
{
	(void)state;
	edited_trace("jump.trace", "switches before count=12", 1000000);
	expect_error_on("model --compare %s", "jump.trace",
	                "jump.trace:44:35: 1000004 context switches since the "
	                "count before, over the cap of 10000 per trace line");
	/* 200 lines of 10,000 switches each: 2,000,000 preemptions */
	FILE *f = fopen(in_dir("many.trace"), "w");
	assert_non_null(f);
	fputs("arch x86_64\ncpus 2\nevent task-clock software\n"
	      "at 1 switches open count=0\nat 2 mark task-clock lock=2\n", f);
	for (unsigned i = 1; i <= 200; i++)
		fprintf(f, "at %u switches before count=%u\nat %u action read\n"
		        "at %u switches after count=%u\n", 2 + i, i * 10000, 2 + i,
		        2 + i, i * 10000);
	assert_int_equal(fclose(f), 0);
	expect_error_on("model --compare %s", "many.trace",
	                "more than the cap of 200000 context switches");
}

/* event= with no name (an uninitialised name reached strcmp), or a name
 * the trace does not declare. */
static void test_trace_action_event(void **state)
{
	(void)state;
	static const char head[] = "arch x86_64\ncpus 2\nevent task-clock "
	                           "software\nat 1 switches open count=0\n"
	                           "at 2 mark task-clock lock=2\n"
	                           "at 2 switches before count=0\n";
	char text[512];
	snprintf(text, sizeof(text), "%sat 2 action reset event=\n", head);
	write_text("empty.trace", text);
	expect_error_on("model --compare %s", "empty.trace",
	                "empty.trace:7:25: the action names no event of the "
	                "trace");
	snprintf(text, sizeof(text), "%sat 2 action reset event=cycles\n", head);
	write_text("other.trace", text);
	expect_error_on("model --compare %s", "other.trace",
	                "other.trace:7:25: the action names no event of the "
	                "trace");
}

/* The hw trace parser is as strict as the scenario parser: every error
 * one line NAME:LINE:COL: message, exit 2, before any output. */
static void test_trace_syntax(void **state)
{
	(void)state;
	static const char head[] = "arch x86_64\ncpus 2\nevent task-clock "
	                           "software\n";
	static const char *const bad[][2] = {
		{ "at 1 mark task-clock lock=2x\n",
		  "bad.trace:4:27: bad number '2x' for lock" },
		{ "at 1 mark task-clock lock=2 lock=3\n",
		  "bad.trace:4:29: duplicate key 'lock'" },
		{ "at 1 mark task-clock frob=1\n",
		  "bad.trace:4:22: unknown key 'frob' for 'mark'" },
		{ "at 1 mark cycles lock=2\n",
		  "bad.trace:4:11: unknown event 'cycles'" },
		{ "at 1 action frobnicate\n",
		  "bad.trace:4:13: unknown action 'frobnicate'" },
		{ "at 1 switches later count=1\n",
		  "bad.trace:4:15: bad value 'later' for switches" },
		{ "at x mark task-clock\n", "bad.trace:4:4: bad number 'x' for time" },
		{ "at 1 poke task-clock\n", "bad.trace:4:6: unknown record 'poke'" },
		{ "at 1 mark\n", "bad.trace:4:10: missing event" },
		{ "at 1 mark task-clock lock\n",
		  "bad.trace:4:22: missing '=' in 'lock'" },
		{ "at 1 mark task-clock lock=99999999999999999999\n",
		  "bad.trace:4:27: lock out of range" },
		{ "arch x86_64\n", "bad.trace:4:1: duplicate 'arch'" },
		{ "cpus 2\n", "bad.trace:4:1: duplicate 'cpus'" },
		{ "event cycles software x\n", "bad.trace:4:23: unexpected 'x'" },
		{ "event task-clock\n", "bad.trace:4:7: duplicate event" },
		{ "event cycles hardware\n", "bad.trace:4:14: unexpected 'hardware'" },
		{ "frob\n", "bad.trace:4:1: not a selfmon hw trace line" },
	};
	char text[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", head, bad[i][0]);
		write_text("bad.trace", text);
		expect_error_on("model --compare %s", "bad.trace", bad[i][1]);
	}
}


/* The line rules hw traces share with the other line formats
 * (util/lines.c): the length is the line's, a missing field is reported
 * just after the last one, and a comment line is text of any number of
 * words. */
static void test_trace_lines(void **state)
{
	(void)state;
	static const char head[] = "arch x86_64\ncpus 2\nevent task-clock "
	                           "software\n";
	char text[1024];

	snprintf(text, sizeof(text), "%sat 1 mark task-clock lock=%0*d\n", head,
	         600 - 26, 2); /* a line of 600 bytes */
	write_text("bad.trace", text);
	expect_error_on("model --compare %s", "bad.trace",
	                "bad.trace:4:600: line too long (max 599 bytes)");
	snprintf(text, sizeof(text), "%sat 1 mark   \n", head);
	write_text("bad.trace", text);
	expect_error_on("model --compare %s", "bad.trace",
	                "bad.trace:4:10: missing event");
	/* the bundled trace after a comment of 40 words */
	FILE *in = fopen(SELFMON_SRC "/traces/hw/swevents.trace", "r");
	FILE *out = fopen(in_dir("words.trace"), "w");
	assert_non_null(in);
	assert_non_null(out);
	for (int i = 0; i < 40; i++)
		fputs(i ? " w" : "# w", out);
	fputc('\n', out);
	while (fgets(text, sizeof(text), in))
		fputs(text, out);
	fclose(in);
	assert_int_equal(fclose(out), 0);
	snprintf(args, sizeof(args), "model --compare %s", in_dir("words.trace"));
	run(args);
	assert_int_equal(r.status, 0);
}

static bool is_kind(const char *p, mode_t kind)
{
	struct stat st;
	return lstat(p, &st) == 0 && (st.st_mode & S_IFMT) == kind;
}

static bool has_svg(const char *p)
{
	char buf[64] = "";
	FILE *f = fopen(p, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return strstr(buf, "<svg") || strstr(buf, "<?xml");
}

/* No temporary left in the private directory. */
static void no_leftovers(void)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") &&
		    strcmp(e->d_name, ".."))
			fail_msg("temporary left behind: %s", e->d_name);
	closedir(d);
}

/* An output named through a symlink is written where the link points;
 * the link stays (it was replaced by a regular file). */
static void test_output_through_symlink(void **state)
{
	char target[8192];
	(void)state;
	snprintf(target, sizeof(target), "%s", in_dir("real.svg"));
	write_text("real.svg", "old\n");
	assert_int_equal(symlink("real.svg", in_dir("link.svg")), 0);
	snprintf(args, sizeof(args), "plot x86_pinned -o %s", in_dir("link.svg"));
	run(args);
	assert_int_equal(r.status, 0);
	assert_true(is_kind(in_dir("link.svg"), S_IFLNK));
	assert_true(is_kind(target, S_IFREG));
	assert_true(has_svg(target));
	/* a dangling link: its target is created */
	assert_int_equal(symlink("new.svg", in_dir("dangling.svg")), 0);
	snprintf(args, sizeof(args), "plot x86_pinned -o %s",
	         in_dir("dangling.svg"));
	run(args);
	assert_int_equal(r.status, 0);
	assert_true(is_kind(in_dir("dangling.svg"), S_IFLNK));
	assert_true(has_svg(in_dir("new.svg")));
	no_leftovers();
}

/* The kernel's fs.protected_symlinks rule, applied whatever the sysctl
 * says: as root, a link that another user planted in a sticky
 * world-writable directory is not followed by any output (it used to
 * replace root's file in a 0700 directory, or create one there), neither
 * as the file itself nor as a directory on the way; a link of the
 * directory's owner still is. */
static void test_output_foreign_links(void **state)
{
	char victim[8192], buf[64];
	(void)state;
	if (geteuid() != 0)
		skip(); /* lchown to another user needs root */
	assert_int_equal(mkdir(in_dir("secret"), 0700), 0);
	write_text("secret/important", "secret\n");
	snprintf(victim, sizeof(victim), "%s", in_dir("secret/important"));
	assert_int_equal(mkdir(in_dir("sticky"), 0777), 0);
	assert_int_equal(chmod(in_dir("sticky"), 01777), 0);
	static const struct { const char *link, *to; } links[] = {
		{ "sticky/report.xml", "secret/important" },
		{ "sticky/new.html", "secret/new.html" },
		{ "sticky/dir", "secret" },
	};
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		char to[8192];
		snprintf(to, sizeof(to), "%s", in_dir(links[i].to));
		assert_int_equal(symlink(to, in_dir(links[i].link)), 0);
		assert_int_equal(lchown(in_dir(links[i].link), 65534, 65534), 0);
	}
	const char *msg = "symbolic link of another user (uid 65534) in a "
	                  "sticky or world-writable directory";
	expect_error_on("check reference --arch x86_64 --scenario x86_pinned "
	                "--no-traces --junit %s", "sticky/report.xml", msg);
	expect_error_on("replay x86_64:unicorn:reference:x86_pinned:- --html %s",
	                "sticky/new.html", msg);
	expect_error_on("plot x86_pinned -o %s", "sticky/dir/important", msg);
	expect_error_on("check no_sext --arch x86_64 --scenario x86_overflow "
	                "--traces %s", "sticky/dir/traces", msg);
	FILE *f = fopen(victim, "r");
	assert_non_null(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	assert_string_equal(buf, "secret\n");
	assert_int_equal(access(in_dir("secret/new.html"), F_OK), -1);
	assert_int_equal(access(in_dir("secret/traces"), F_OK), -1);
	/* the directory's owner's link is followed, as the kernel does */
	assert_int_equal(lchown(in_dir("sticky/dir"), 0, 0), 0);
	snprintf(args, sizeof(args), "plot x86_pinned -o %s",
	         in_dir("sticky/dir/own.svg"));
	run(args);
	assert_int_equal(r.status, 0);
	assert_true(has_svg(in_dir("secret/own.svg")));
}

/* --explain runs no shell and reads nothing of the build tree: the
 * riscv64 disassembler is spawned with an argument vector (a build
 * directory whose name held a quote used to run a command through
 * popen's shell), and the built-in readers' ELF file comes from the
 * binary itself, as an installed selfmon needs.  Seen with strace. */
static void test_explain_spawns_no_shell(void **state)
{
	char log[8192], text[65536];
	(void)state;
	if (system("command -v strace >/dev/null 2>&1") != 0 ||
	    !arch_built("riscv64"))
		skip();
	snprintf(log, sizeof(log), "%s", in_dir("strace.log"));
	snprintf(args, sizeof(args), "strace -f -qq -e trace=execve,open,openat "
	         "-o '%s' '%s' replay riscv64:unicorn:no_sext:riscv64:- "
	         "--explain >/dev/null 2>&1", log, SELFMON_BIN);
	assert_int_not_equal(system(args), -1);
	FILE *f = fopen(log, "r");
	assert_non_null(f);
	size_t k = fread(text, 1, sizeof(text) - 1, f);
	text[k] = '\0';
	fclose(f);
	unlink(log);
	assert_non_null(strstr(text, "execve(")); /* strace saw the run */
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (strstr(l, "execve(") && !strstr(l, "selfmon\"") &&
		    !strstr(l, "-objdump\""))
			fail_msg("--explain ran another program: %s", l);
		if (strstr(l, "readers.elf"))
			fail_msg("--explain read the build tree: %s", l);
	}
}

/* A FIFO nobody reads: refused at once, and still a FIFO. */
static void test_output_fifo(void **state)
{
	(void)state;
	assert_int_equal(mkfifo(in_dir("out.fifo"), 0600), 0);
	expect_error_on("plot x86_pinned -o %s", "out.fifo",
	                "out.fifo: a FIFO that no process reads");
	assert_true(is_kind(in_dir("out.fifo"), S_IFIFO));
	expect_error_on("plot x86_pinned -o %s", "", "Is a directory");
	no_leftovers();
}

/* Devices are written through, never replaced (as root, --out /dev/full
 * used to destroy /dev/full). */
static void test_output_devices(void **state)
{
	(void)state;
	run("plot x86_pinned -o /dev/null");
	assert_int_equal(r.status, 0);
	assert_true(is_kind("/dev/null", S_IFCHR));
	/* /dev/stdout on a pipe: /proc/self/fd/1 names the pipe, not a path
	 * (it used to be "No such file or directory") */
	snprintf(args, sizeof(args), "'%s' plot x86_pinned -o /dev/stdout | "
	         "cat > '%s/piped.svg'", SELFMON_BIN, dir);
	assert_int_equal(system(args), 0);
	assert_true(has_svg(in_dir("piped.svg")));
	expect_usage_error("plot x86_pinned -o /dev/full",
	                   "plot: /dev/full: No space left on device");
	assert_true(is_kind("/dev/full", S_IFCHR));
	run("hw record --out /dev/null --duration 20");
	if (strstr(r.err, "cannot open")) /* no perf events here */
		return;
	assert_int_equal(r.status, 0);
	assert_true(is_kind("/dev/null", S_IFCHR));
	expect_usage_error("hw record --out /dev/full --duration 20",
	                   "hw record: /dev/full: No space left on device");
	assert_true(is_kind("/dev/full", S_IFCHR));
	/* and a symlink as --out stays one */
	assert_int_equal(symlink("rec.trace", in_dir("rec.link")), 0);
	snprintf(args, sizeof(args), "hw record --out %s --duration 20",
	         in_dir("rec.link"));
	run(args);
	assert_int_equal(r.status, 0);
	assert_true(is_kind(in_dir("rec.link"), S_IFLNK));
	assert_true(is_kind(in_dir("rec.trace"), S_IFREG));
	no_leftovers();
}

/* A --traces path longer than check's old 700-byte buffer. */
static void test_long_traces_path(void **state)
{
	char deep[2048], file[4096];
	(void)state;
	snprintf(deep, sizeof(deep), "%s", dir);
	for (char c = 'a'; c <= 'd'; c++) {
		size_t n = strlen(deep);
		deep[n] = '/';
		memset(deep + n + 1, c, 200);
		deep[n + 201] = '\0';
	}
	snprintf(args, sizeof(args), "check no_zero_ext_fix --scenario x86_reset "
	         "--arch x86_64 --traces %s", deep);
	run(args);
	assert_int_equal(r.status, 0);
	snprintf(file, sizeof(file), "%s/no_zero_ext_fix-x86_reset-unicorn.trace",
	         deep);
	assert_true(is_kind(file, S_IFREG));
	snprintf(args, sizeof(args), "replay %s", file);
	run(args);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "WRONG_VALUE"));
}

/* --traces where no file can be created: one line before any work. */
static void test_unwritable_traces(void **state)
{
	(void)state;
	write_text("plain", "a file, not a directory\n");
	expect_error_on("check no_zero_ext_fix --scenario x86_reset --arch x86_64 "
	                "--traces %s/cex", "plain",
	                "plain/cex: Not a directory (--traces DIR or --no-traces)");
}

static void test_seed_needs_random(void **state)
{
	(void)state;
	expect_usage_error("check reference --seed 5",
	                   "check: --seed applies to --random N only");
	expect_usage_error("check reference --random 0 --seed 5",
	                   "check: --seed applies to --random N only");
}

/* check's default -j is the CPU count: more than 256 CPUs overran its
 * array of threads (here the count is faked; the default sweep has more
 * than 256 cells when the cross compilers are built). */
static void test_many_cpus(void **state)
{
	char *argv[] = { "--bound", "0", "--no-traces", "--json", NULL };
	(void)state;
	fflush(stdout);
	int saved = dup(1), null = open("/dev/null", O_WRONLY);
	assert_true(saved >= 0 && null >= 0);
	dup2(null, 1);
	close(null);
	fake_cpus = 300;
	int rc = cmd_check(4, argv);
	fake_cpus = 0;
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	assert_true(rc == 0 || rc == 1); /* verdicts, not a usage error */
}

/* A few bytes of scenario that asked the model for 2^64 multiplexing ticks
 * or overflow interrupts: model, check and plot ran forever (model wrote
 * gigabytes).  Loading now refuses a run over the cap on model events. */
static void test_unbounded_scenarios(void **state)
{
	static const char *const scn[][2] = {
		{ "mux.scn", "arch x86_64\npmu mux_interval=1\n"
		             "end 18446744073709551615\n" },
		{ "period.scn", "arch x86_64\nevent instructions period=1 left=1\n"
		                "end 18446744073709551615\n" },
		/* sampling: a riscv64 counting event's wraps are no activity */
		{ "narrow.scn", "arch riscv64\npmu width=1\nevent instructions "
		                "period=1 rate=1000000\nend 18446744073709551615\n" },
		{ "late.scn", "arch x86_64\npmu mux_interval=1\n"
		              "check at=18446744073709551615\n" },
	};
	const char *msg = "needs more than 100000 multiplexing ticks and "
	                  "overflow interrupts, the cap per run";
	(void)state;
	for (size_t i = 0; i < sizeof(scn) / sizeof(scn[0]); i++) {
		write_text(scn[i][0], scn[i][1]);
		expect_error_on("model %s", scn[i][0], msg);
		expect_error_on("check reference --scenario %s --no-traces",
		                scn[i][0], msg);
		snprintf(args, sizeof(args), "plot %s -o %s/out.svg",
		         in_dir(scn[i][0]), dir);
		expect_usage_error(args, msg);
		assert_false(is_kind(in_dir("out.svg"), S_IFREG));
	}
	expect_error_on("replay x86_64:unicorn:reference:%s:-", "mux.scn", msg);
	/* just under the cap is a scenario like any other */
	write_text("under.scn", "arch x86_64\npmu mux_interval=10\n"
	           "end 900000\n");
	snprintf(args, sizeof(args), "model %s", in_dir("under.scn"));
	run(args);
	assert_int_equal(r.status, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_inputs),
		cmocka_unit_test(test_endless_inputs),
		cmocka_unit_test(test_oversized_inputs),
		cmocka_unit_test(test_control_bytes),
		cmocka_unit_test(test_explain_bug_without_name),
		cmocka_unit_test(test_trace_switch_caps),
		cmocka_unit_test(test_trace_action_event),
		cmocka_unit_test(test_trace_syntax),
		cmocka_unit_test(test_trace_lines),
		cmocka_unit_test(test_output_through_symlink),
		cmocka_unit_test(test_names_refused),
		cmocka_unit_test(test_inapplicable_refused),
		cmocka_unit_test(test_output_foreign_links),
		cmocka_unit_test(test_explain_spawns_no_shell),
		cmocka_unit_test(test_output_fifo),
		cmocka_unit_test(test_output_devices),
		cmocka_unit_test(test_long_traces_path),
		cmocka_unit_test(test_unwritable_traces),
		cmocka_unit_test(test_seed_needs_random),
		cmocka_unit_test(test_many_cpus),
		cmocka_unit_test(test_unbounded_scenarios),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
