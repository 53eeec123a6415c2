/*
 * guest.c — /init of a `selfmon vm` guest: the checks of `selfmon hw` run
 * on the real kernel the VM boots, printed as wire lines on the console
 * (sim/hw/hw_run.h), then the machine powers off.
 *
 * Owns only what a process that is init must do itself (say it started
 * (SM_VM_GUEST_STARTED), mount /proc, set
 * kernel.perf_user_access, read its orders from the kernel command line,
 * power off, and each reader's checks in a process of its own, within a
 * time limit); the checks are sim/hw's and the readers sim/readers' (built
 * for the guest's arch with SELFMON_GUEST).  Built statically with the
 * cross compiler (CMakeLists.txt), never run on the host.
 *
 * Orders, on the kernel command line: selfmon.readers=A,B (default: every
 * built-in reader the arch has), selfmon.iterations=N (default 1000),
 * selfmon.user_access=N (kernel.perf_user_access, default 1),
 * selfmon.slow=K (the checks' CPU budgets K times `hw`'s, default 1),
 * selfmon.users=N (the user's readers, files /reader/0.. of the
 * initramfs, guest_reader.h; named "user:K" in the wire lines);
 * or selfmon.record=E,F,... with selfmon.duration=MS: `hw record`'s
 * recorder on those events, its trace printed as "@selfmon-trace LINE"
 * lines and "@selfmon-trace-end lines=N".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest_image.h"
#include "guest_reader.h"
#include "hw_record.h"
#include "hw_run.h"
#include "hw_trace.h"
#include "input.h"
#include "lines.h"

static char cmdline[4096];

/* The value of selfmon.KEY= on the command line (cut at a blank), or
 * NULL. */
static const char *order(const char *key, char *buf, size_t n)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "selfmon.%s=", key);
	for (const char *p = cmdline; (p = strstr(p, pat)); p++)
		if (p == cmdline || p[-1] == ' ') {
			p += strlen(pat);
			size_t len = strcspn(p, " \n");
			if (len >= n)
				len = n - 1;
			memcpy(buf, p, len);
			buf[len] = '\0';
			return buf;
		}
	return NULL;
}

static void read_cmdline(void)
{
	int fd = open("/proc/cmdline", O_RDONLY);
	if (fd < 0)
		return;
	ssize_t n = read(fd, cmdline, sizeof(cmdline) - 1);
	cmdline[n > 0 ? n : 0] = '\0';
	close(fd);
}

static void user_access(void)
{
	char v[16];
	const char *a = order("user_access", v, sizeof(v));
	int fd = open("/proc/sys/kernel/perf_user_access", O_WRONLY);
	if (fd < 0)
		return;
	if (write(fd, a ? a : "1", strlen(a ? a : "1")) < 0)
		perror("@selfmon-note perf_user_access");
	close(fd);
}

static void power_off(void)
{
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	_exit(0);
}

/* The user's readers' files: their load-time code runs in each one's
 * own process (contained()). */
static struct { const struct sm_reader *r; char *file; size_t len; }
	loaded[SM_GUEST_READERS_MAX];
static unsigned nloaded;

/* The user's reader k from /reader/k, mapped where the host relocated
 * it, as reader "user:k"; false after "@selfmon-error" (the host reports
 * it). */
static bool user_reader(unsigned k, struct sm_reader *r, char *name,
                        size_t n)
{
	static bool stubs;
	char path[32], err[256];
	struct sm_guest_reader g;
	void *entry = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "/reader/%u", k);
	snprintf(name, n, "user:%u", k);
	/* an image is at most 64 MiB (elf_load.c), and its header */
	char why[128], *file = sm_read_input(path, (size_t)65 << 20, &len, why,
	                                      sizeof(why));
	if (file)
		entry = sm_guest_reader_map(file, len, &g, err, sizeof(err));
	else
		snprintf(err, sizeof(err), "%s: %s", path, why);
	if (entry && g.ninit && nloaded < SM_GUEST_READERS_MAX) {
		loaded[nloaded].r = r;
		loaded[nloaded].file = file;
		loaded[nloaded++].len = len;
	} else {
		free(file);
	}
	if (entry && !stubs && sm_guest_stubs_map(g.stub_base, err,
	                                          sizeof(err)) == 0)
		stubs = true;
	if (!entry || !stubs) {
		sm_printable(err);
		printf("@selfmon-error %s: %s\n", name, err);
		return false;
	}
	*r = (struct sm_reader){ .name = name, .what = "your reader",
	                         .abi = (enum sm_abi)g.abi,
	                         .hw = (void (*)(void))entry };
	return true;
}

/* What a reader's own process hands back (shared memory). */
struct slot {
	volatile int done;
	char why[200];  /* the reader's load-time code failed: why */
	unsigned n;
	struct hw_run_check c[HW_RUN_MAX_EVENTS];
};

/* Reader r's checks, run in a process of its own (its events opened
 * there: a perf mmap is not inherited), onto run->checks: a reader that
 * kills its process (or corrupts it), or runs past limit_s seconds, is
 * that reader's failure on every event, and the next one still runs. */
static void contained(const struct sm_reader *r, struct hw_run *run,
                      struct slot *sl, unsigned iterations, unsigned slow,
                      unsigned limit_s)
{
	int st = 0;
	bool killed = false;

	sl->done = 0;
	sl->n = 0;
	sl->why[0] = '\0';
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct hw_run one;
		struct sm_reader run_as = *r;
		const struct sm_reader *only[1] = { &run_as };
		for (unsigned k = 0; k < nloaded; k++) {
			void *entry;
			char err[160];
			if (loaded[k].r != r)
				continue;
			entry = sm_guest_reader_init(loaded[k].file, loaded[k].len,
			                             (void *)r->hw, err, sizeof(err));
			if (!entry) {
				snprintf(sl->why, sizeof(sl->why), "its load-time code: "
				         "%s", err);
				_exit(3);
			}
			run_as.hw = (void (*)(void))entry;
		}
		if (hw_run_here(&one, only, 1, iterations, slow) == 0) {
			for (unsigned i = 0; i < one.nchecks && i < HW_RUN_MAX_EVENTS;
			     i++)
				sl->c[sl->n] = one.checks[i],
				sl->c[sl->n++].reader = r; /* not the copy run_as */
			sl->done = 1;
		}
		_exit(0);
	}
	for (uint64_t end = hw_now_ns() + limit_s * 1000000000ull; pid > 0;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid || (w < 0 && errno != EINTR))
			break;
		if (hw_now_ns() > end) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			killed = true;
			break;
		}
		struct timespec nap = { 0, 20 * 1000000 };
		nanosleep(&nap, NULL);
	}
	if (pid > 0 && !killed && WIFEXITED(st) && sl->done) {
		for (unsigned i = 0; i < sl->n && sl->c[i].event < run->nev; i++)
			run->checks[run->nchecks++] = sl->c[i];
		return;
	}
	char why[200];
	if (pid > 0 && sl->why[0])
		snprintf(why, sizeof(why), "%s", sl->why);
	else if (pid < 0)
		snprintf(why, sizeof(why), "no process to run it in: %s",
		         strerror(errno));
	else if (killed)
		snprintf(why, sizeof(why), "hangs: its process did not end within "
		         "%u s (killed)", limit_s);
	else if (WIFSIGNALED(st))
		snprintf(why, sizeof(why), "its process was ended by signal %d (%s)",
		         WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(why, sizeof(why), "its process exited with status %d "
		         "before its checks ended", WEXITSTATUS(st));
	for (unsigned i = 0; i < run->nev; i++)
		if (!run->ev[i].err) {
			struct hw_run_check *c = &run->checks[run->nchecks++];
			memset(c, 0, sizeof(*c));
			c->reader = r;
			c->event = i;
			c->t.died = true;
			c->t.hung = killed;
			c->t.runs = c->t.fails = 1; /* the one that failed */
			snprintf(c->t.first, sizeof(c->t.first), "%s", why);
		}
}

/* Every reader's checks, each in its own process: the machine and the
 * events (opened, their pages taken, closed) here, then the readers one
 * at a time, each given a wall-time limit of four times its events' CPU
 * budgets and 30 s.  0, or -1 out of memory. */
static int run_contained(struct hw_run *run,
                         const struct sm_reader *const *readers, unsigned n,
                         unsigned iterations, unsigned slow)
{
	if (hw_run_here(run, readers, 0, iterations, slow) < 0)
		return -1;
	free(run->checks);
	run->checks = calloc((size_t)n * run->nev + 1, sizeof(*run->checks));
	struct slot *sl = mmap(NULL, sizeof(*sl), PROT_READ | PROT_WRITE,
	                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!run->checks || sl == MAP_FAILED) {
		free(run->checks);
		run->checks = NULL;
		return -1;
	}
	unsigned opened = 0;
	for (unsigned i = 0; i < run->nev; i++)
		opened += !run->ev[i].err;
	uint64_t ms = hw_budget_ms(iterations, slow) * (opened ? opened : 1);
	unsigned limit_s = (unsigned)(4 * ms / 1000) + 30;
	for (unsigned k = 0; k < n; k++)
		contained(readers[k], run, sl, iterations, slow, limit_s);
	munmap(sl, sizeof(*sl));
	return 0;
}

/* `hw record` in the guest: the trace on the console, line by line. */
static void record(const char *events)
{
	char buf[32], err[256], *text = NULL;
	size_t len = 0;
	unsigned long ms = 200;
	struct hw_recorder *rc = calloc(1, sizeof(*rc));

	if (order("duration", buf, sizeof(buf)))
		ms = strtoul(buf, NULL, 10);
	if (ms < 10 || ms > 600000)
		ms = 200;
	FILE *f = rc ? open_memstream(&text, &len) : NULL;
	if (!f) {
		puts("@selfmon-trace-error out of memory");
		return;
	}
	if (hw_record(rc, events, ms, err, sizeof(err)) < 0) {
		fclose(f);
		sm_printable(err);
		printf("@selfmon-trace-error %s\n", err);
		free(text);
		return;
	}
	hw_trace_write(f, "the guest", rc->ev, rc->nev, rc->r, rc->n);
	fclose(f);
	struct utsname u;
	unsigned lines = 0;
	if (uname(&u) == 0) {
		char k[600];
		snprintf(k, sizeof(k), "Linux %s %s %s", u.release, u.version,
		         u.machine);
		sm_printable(k);
		printf("@selfmon-trace # kernel: %s\n", k);
		lines++;
	}
	for (char *l = text, *nl; l && *l; l = nl ? nl + 1 : NULL, lines++) {
		nl = strchr(l, '\n');
		printf("@selfmon-trace %.*s\n", nl ? (int)(nl - l) : (int)strlen(l),
		       l);
	}
	printf("@selfmon-trace-end lines=%u\n", lines);
	free(text);
	hw_record_free(rc);
	free(rc);
}

int main(void)
{
	static const struct sm_reader *readers[256 + SM_GUEST_READERS_MAX];
	static struct sm_reader users[SM_GUEST_READERS_MAX];
	static char names[SM_GUEST_READERS_MAX][16];
	struct hw_run run;
	char buf[1024], *list;
	unsigned n = 0, iterations = 1000, slow = 1, nusers = 0;

	fputs(SM_VM_GUEST_STARTED, stdout); /* the boot reached /init */
	fflush(stdout);
	mount("proc", "/proc", "proc", 0, NULL);
	read_cmdline();
	user_access();
	if (order("record", buf, sizeof(buf))) {
		record(buf);
		power_off();
	}
	if (order("iterations", buf, sizeof(buf)))
		iterations = (unsigned)strtoul(buf, NULL, 10);
	if (!iterations || iterations > 10000000)
		iterations = 1000;
	if (order("slow", buf, sizeof(buf)))
		slow = (unsigned)strtoul(buf, NULL, 10);
	if (!slow || slow > 1000)
		slow = 1;
	if ((list = (char *)order("readers", buf, sizeof(buf)))) {
		for (char *r; (r = sm_split_next(&list, ',')) && n < 256;) {
			const struct sm_reader *x = sm_reader_find(r);
			if (x && x->hw)
				readers[n++] = x;
		}
	} else
		for (unsigned i = 0; i < sm_nreaders && n < 256; i++)
			if (sm_readers[i].hw)
				readers[n++] = &sm_readers[i];
	if (order("users", buf, sizeof(buf)))
		nusers = (unsigned)strtoul(buf, NULL, 10);
	for (unsigned k = 0; k < nusers && k < SM_GUEST_READERS_MAX; k++) {
		if (!user_reader(k, &users[k], names[k], sizeof(names[k])))
			power_off();
		readers[n++] = &users[k];
	}
	if (run_contained(&run, readers, n, iterations, slow) == 0)
		hw_run_write(stdout, &run);
	else
		puts("@selfmon-note out of memory");
	power_off();
	return 0;
}
