/*
 * vm_boot.c — QEMU around one guest boot (vm_boot.h).
 *
 * Owns the process, its argument vector, the console pipe, the cap and
 * the time-out.  It must not interpret the console: the caller parses it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vm_boot.h"

/* The initramfs as a memfd at fd 3 of QEMU, read as /dev/fd/3. */
static int initrd_fd(const void *data, size_t size)
{
	int fd = memfd_create("selfmon-initramfs", MFD_CLOEXEC);
	const char *p = data;

	if (fd < 0)
		return -1;
	for (size_t done = 0; done < size;) {
		ssize_t w = write(fd, p + done, size - done);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	return fd;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* QEMU's argument vector for the spec, in argv (room for 40). */
static void args(const struct sm_vm_spec *s, char *cpus, char *mem,
                 const char **argv)
{
	unsigned n = 0;

	argv[n++] = s->qemu;
	if (s->version) {
		argv[n++] = "-version";
		argv[n] = NULL;
		return;
	}
	argv[n++] = "-M";
	argv[n++] = "virt";
	argv[n++] = "-cpu";
	argv[n++] = s->arch == SM_ARM64 ? "max,pauth-impdef=on"
	                                : "rv64,sscofpmf=true";
	argv[n++] = "-smp";
	argv[n++] = cpus;
	argv[n++] = "-m";
	argv[n++] = mem;
	argv[n++] = "-nographic";
	argv[n++] = "-nic";
	argv[n++] = "none";
	argv[n++] = "-no-reboot";
	if (s->bios) {
		argv[n++] = "-bios";
		argv[n++] = s->bios;
	}
	if (s->icount) {
		argv[n++] = "-icount";
		argv[n++] = "shift=0";
	}
	argv[n++] = "-kernel";
	argv[n++] = s->kernel;
	argv[n++] = "-initrd";
	argv[n++] = "/dev/fd/3";
	argv[n++] = "-append";
	argv[n++] = s->append;
	argv[n] = NULL;
}

void sm_vm_machine(const struct sm_vm_spec *s, char *buf, size_t n)
{
	char cpus[16], mem[16];
	const char *argv[40];
	size_t k = 0;

	snprintf(cpus, sizeof(cpus), "%u", s->cpus);
	snprintf(mem, sizeof(mem), "%u", s->mem_mb);
	struct sm_vm_spec m = *s;
	m.version = false;
	m.bios = s->bios ? "OpenSBI" : NULL; /* its name, not its path */
	args(&m, cpus, mem, argv);
	buf[0] = '\0';
	for (unsigned i = 1; argv[i] && strcmp(argv[i], "-kernel") && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? " " : "", argv[i]);
}

/* Read the console until QEMU ends, the time is up or the cap is hit. */
static int collect(int fd, pid_t pid, const struct sm_vm_spec *s,
                   struct sm_vm_result *r, double t0)
{
	size_t cap = 64 * 1024;
	bool wait_start = s->started && s->start_s < s->timeout_s;
	size_t from = 0, mark = wait_start ? strlen(s->started) : 0;

	if (!(r->out = malloc(cap + 1)))
		return -1;
	for (;;) {
		if (wait_start) { /* each byte looked at once or so */
			r->out[r->len] = '\0';
			wait_start = !strstr(r->out + from, s->started);
			from = r->len > mark ? r->len - mark : 0;
		}
		double left = (wait_start ? s->start_s : s->timeout_s) -
		              (now_s() - t0);
		if (left <= 0) {
			*(wait_start ? &r->not_started : &r->timed_out) = true;
			break;
		}
		struct pollfd p = { fd, POLLIN, 0 };
		int k = poll(&p, 1, (int)(left * 1000) + 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			continue;
		if (r->len == cap) {
			if (cap >= s->max_output) {
				r->too_long = true;
				break;
			}
			size_t ncap = cap * 2 < s->max_output ? cap * 2 : s->max_output;
			char *o = realloc(r->out, ncap + 1);
			if (!o)
				return -1;
			r->out = o;
			cap = ncap;
		}
		ssize_t got = read(fd, r->out + r->len, cap - r->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break; /* EOF: QEMU closed its console */
		r->len += (size_t)got;
	}
	r->out[r->len] = '\0';
	if (r->timed_out || r->too_long || r->not_started)
		kill(pid, SIGKILL);
	return 0;
}

int sm_vm_boot(const struct sm_vm_spec *s, struct sm_vm_result *r, char *err,
               size_t n)
{
	char cpus[16], mem[16];
	const char *argv[40];
	char *envp[] = { "LC_ALL=C", NULL };
	int pipefd[2] = { -1, -1 }, rd = initrd_fd(s->initrd, s->initrd_size);
	posix_spawn_file_actions_t fa;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	snprintf(cpus, sizeof(cpus), "%u", s->cpus);
	snprintf(mem, sizeof(mem), "%u", s->mem_mb);
	args(s, cpus, mem, argv);
	if (rd < 0 || pipe2(pipefd, O_CLOEXEC) < 0) {
		snprintf(err, n, "cannot pass the initramfs: %s", strerror(errno));
		if (rd >= 0)
			close(rd);
		return -1;
	}
	int rc = posix_spawn_file_actions_init(&fa);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY,
		                                      0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, rd, 3);
	double t0 = now_s();
	if (!rc)
		rc = posix_spawn(&pid, s->qemu, &fa, NULL, (char **)argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	close(rd);
	if (rc) {
		close(pipefd[0]);
		snprintf(err, n, "cannot run %s: %s", s->qemu, strerror(rc));
		return -1;
	}
	int c = collect(pipefd[0], pid, s, r, t0);
	close(pipefd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r->seconds = now_s() - t0;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (c < 0) {
		free(r->out);
		r->out = NULL;
		snprintf(err, n, "out of memory");
		return -1;
	}
	return 0;
}
