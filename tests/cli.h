/*
 * cli.h — running the `selfmon` binary from a test: both streams and the
 * exit status captured.
 */
#ifndef SELFMON_TEST_CLI_H
#define SELFMON_TEST_CLI_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

struct run {
	int status;
	char out[1 << 20];
	char err[4096];
};

static struct run r;

static inline void slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t k = 0;
	if (f) {
		k = fread(buf, 1, n - 1, f);
		fclose(f);
	}
	buf[k] = 0;
	unlink(path);
}

/* Runs `cd DIR && ENV selfmon ARGS` through the shell (ENV "" for none,
 * else VAR=VALUE ...), capturing both streams. */
static inline void run_at(const char *dir, const char *env, const char *args)
{
	char cmd[4096], out[] = "/tmp/selfmon-cli-outXXXXXX",
	                err[] = "/tmp/selfmon-cli-errXXXXXX";
	int fo = mkstemp(out), fe = mkstemp(err);
	assert_true(fo >= 0 && fe >= 0);
	close(fo);
	close(fe);
	snprintf(cmd, sizeof(cmd), "cd '%s' && %s '%s' %s >%s 2>%s", dir, env,
	         SELFMON_BIN, args, out, err);
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	r.status = WEXITSTATUS(st);
	slurp(out, r.out, sizeof(r.out));
	slurp(err, r.err, sizeof(r.err));
}

/* Runs `selfmon ARGS` from the source tree, capturing both streams. */
static inline void run(const char *args)
{
	run_at(SELFMON_SRC, "", args);
}

static inline unsigned count_lines(const char *s)
{
	unsigned n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Bad input: exit 2, nothing on stdout, one line on stderr naming msg. */
static inline void expect_usage_error(const char *args, const char *msg)
{
	run(args);
	if (r.status != 2)
		fail_msg("'%s': exit %d, stderr %s", args, r.status, r.err);
	assert_string_equal(r.out, "");
	assert_int_equal(count_lines(r.err), 1);
	if (!strstr(r.err, msg))
		fail_msg("'%s': stderr '%s' lacks '%s'", args, r.err, msg);
}

/* Is there reader code for this arch in this selfmon? (runs `list`) */
static inline bool arch_built(const char *arch)
{
	char want[64];
	run("list");
	snprintf(want, sizeof(want), "%-8s readers built", arch);
	return strstr(r.out, want) != NULL;
}

/* A private temporary directory for this test binary, made on first use
 * and removed (with what is in it) at exit. */
static char cli_dir[] = "/tmp/selfmon-testXXXXXX";

static inline void cli_rmdir(void)
{
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cli_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", cli_dir);
}

static inline const char *tmpdir(void)
{
	static bool made; /* (the random name may itself end in 'X') */

	if (!made) {
		assert_non_null(mkdtemp(cli_dir));
		atexit(cli_rmdir);
		made = true;
	}
	return cli_dir;
}

/* Compiles tests/readers/SRC with `cc FLAGS` into tmpdir()/OBJ (its path
 * into path); false if that toolchain cannot. */
static inline bool compile_reader(const char *cc, const char *flags,
                                  const char *src, const char *obj,
                                  char *path, size_t n)
{
	char cmd[2048];
	snprintf(path, n, "%s/%s", tmpdir(), obj);
	snprintf(cmd, sizeof(cmd), "%s %s -c -I'%s/model' -I'%s/reader' "
	         "'%s/tests/readers/%s' -o '%s' 2>/dev/null", cc, flags,
	         SELFMON_SRC, SELFMON_SRC, SELFMON_SRC, src, path);
	return system(cmd) == 0;
}

#endif
