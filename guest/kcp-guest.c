/* kcp-guest.c: kconfperf's /init: mount, read kcp.* parameters, run a workload, report on its own port, power off. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <alloca.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

/*
 * As init (PID 1) kcp-guest must never exit: that panics the kernel.  So
 * the workload runs in a child process, and init only waits for it,
 * reports how it ended and powers off, whatever happened.  With --host it
 * does the same as an ordinary program (no mounts, results on stdout, exit
 * status 0 when the run is complete) so workloads can be tested without a
 * virtual machine.
 */

/*
 * The results port, apart from the kernel console: on x86 qemu's second
 * serial port; on arm64 a virtio console, since qemu's virt machine has one
 * PL011 (run/vm.c).  kcp.results=DEVICE names another, for a board whose
 * runner reads the results elsewhere (the console itself, a second UART).
 */
#if defined(__aarch64__)
#define RESULTS_TTY "/dev/hvc0"
#else
#define RESULTS_TTY "/dev/ttyS1"
#endif
#define CMDLINE_MAX 4096

static int out_fd = -1;		/* where KCP lines go */
static int out_failed;		/* a KCP line could not be written (said once) */
static int error_written;
static int workload_id = -1;
/* kcp.layout=N: the seed of the workload's memory layout (apply_layout()). */
static unsigned long long layout_seed;
static int layout_given;
static const char **values;	/* per workload_params[] index; NULL unless ours */
static unsigned long long *numbers;
static double boot_s;
static char self[256];
static int init_mode;		/* running as the guest's /init */

static const char usage_text[] =
	"usage: kcp-guest                 (as /init: kcp.* parameters from /proc/cmdline)\n"
	"   or: kcp-guest --host --workload=NAME [--PARAM=VALUE]...\n"
	"   or: kcp-guest --host --cmdline='kcp.workload=NAME kcp.PARAM=VALUE...'\n"
	"   or: kcp-guest --exit          (exits at once; for the fork workload)\n";

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

double boot_seconds(void)
{
	return boot_s;
}

int guest_is_init(void)
{
	return init_mode;
}

const char *self_path(void)
{
	return self;
}

/* Writes one protocol line: "KCP <version> " + the formatted rest + "\n". */
static void kcp_line(const char *fmt, ...) PRINTF(1, 2);
static void kcp_line(const char *fmt, ...)
{
	char line[KCP_LINE_MAX];
	va_list ap;
	int n, m;

	n = snprintf(line, sizeof(line), "KCP %d ", KCP_PROTOCOL_VERSION);
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		m = 0;
	n += m;
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* A lost line fails the run; saying so once is enough (fork copies the flag). */
	if (write_all(out_fd, line, n) && !out_failed++ && out_fd != 2)
		dprintf(2, "kcp-guest: cannot write results: %s\n", strerror(errno));
}

/* Copies msg into out[size] quoted as a protocol value. */
static void quote(char *out, size_t size, const char *msg)
{
	size_t o = 0;

	out[o++] = '"';
	for (; *msg && o + 4 < size; msg++) {
		unsigned char c = *msg;

		if (c == '"' || c == '\\')
			out[o++] = '\\';
		out[o++] = c < ' ' || c == 0x7f ? '?' : c;
	}
	out[o++] = '"';
	out[o] = '\0';
}

static int verror(int err, const char *fmt, va_list ap)
{
	char msg[1024], quoted[2100];
	size_t len;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (err) {
		len = strlen(msg);
		snprintf(msg + len, sizeof(msg) - len, ": %s", strerror(err));
	}
	dprintf(2, "kcp-guest: error: %s\n", msg);
	if (!error_written && out_fd >= 0) {
		quote(quoted, sizeof(quoted), msg);
		kcp_line("error msg=%s", quoted);
		error_written = 1;
	}
	return -1;
}

int guest_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(0, fmt, ap);
	va_end(ap);
	return -1;
}

int guest_error_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	verror(err, fmt, ap);
	va_end(ap);
	return -1;
}

void report_sample(unsigned iter, double value)
{
	report_sample_per(iter, value, 1);
}

void report_sample_per(unsigned iter, double value, unsigned long long per)
{
	const struct workload_info *w = &workload_table[workload_id];
	char per_key[40] = "";

	if (per > 1)
		snprintf(per_key, sizeof(per_key), " per=%llu", per);
	kcp_line("sample workload=%s iter=%u metric=%s unit=%s better=%s value=%.9g%s",
		 w->name, iter, w->metric, w->unit,
		 w->higher_is_better ? "higher" : "lower", value, per_key);
}

static size_t param_index(const char *name)
{
	const struct workload_param *p = workload_param_find(workload_id, name);

	if (!p) {
		guest_error("internal error: workload '%s' has no parameter '%s'",
			    workload_table[workload_id].name, name);
		_exit(1);
	}
	return p - workload_params;
}

unsigned long long param_num(const char *name)
{
	return numbers[param_index(name)];
}

const char *param_str(const char *name)
{
	return values[param_index(name)];
}

/* Appends ", " (unless list is empty) and item to list, cut to fit its size. */
static void list_append(char *list, size_t size, const char *item)
{
	size_t len = strlen(list);

	snprintf(list + len, size - len, "%s%s", *list ? ", " : "", item);
}

/*
 * Sets kcp.<key>=<value> (or --key=value) for the chosen workload; the
 * workload must be known.  Returns 0 or -1 with an error written.
 */
static int set_param(const char *key, char *value, const char *how)
{
	const struct workload_param *p = workload_param_find(workload_id, key);
	char why[256];
	size_t i;

	if (!p) {
		char list[512] = "";

		for (i = 0; i < nr_workload_params; i++)
			if ((int)workload_params[i].workload == workload_id)
				list_append(list, sizeof(list), workload_params[i].name);
		return guest_error("workload '%s' has no parameter '%s%s' (parameters: %s)",
				   workload_table[workload_id].name, how, key,
				   *list ? list : "none");
	}
	i = p - workload_params;
	if (values[i] != p->def)
		return guest_error("parameter '%s%s' given twice", how, key);
	/* on the kernel command line a TEXT value is percent-encoded */
	if (p->type == WP_TEXT && !strcmp(how, "kcp.") && workload_text_decode(value))
		return guest_error("%s%s: a '%%' that is not %%XX in '%s'", how, key, value);
	if (workload_param_check(p, value, &numbers[i], why, sizeof(why)))
		return guest_error("%s%s: %s", how, key, why);
	values[i] = value;
	return 0;
}

static int set_workload(const char *name)
{
	size_t i;

	if (workload_id >= 0)
		return guest_error("the workload is given twice");
	workload_id = workload_find(name);
	if (workload_id < 0) {
		char list[512] = "";

		for (i = 0; i < NR_WORKLOADS; i++)
			list_append(list, sizeof(list), workload_table[i].name);
		return guest_error("unknown workload '%s' (workloads: %s)", name, list);
	}
	for (i = 0; i < nr_workload_params; i++) {
		const struct workload_param *p = &workload_params[i];
		char why[256];

		if ((int)p->workload != workload_id)
			continue;
		values[i] = p->def;
		if (workload_param_check(p, p->def, &numbers[i], why, sizeof(why)))
			return guest_error("internal error: default of '%s': %s", p->name, why);
	}
	return 0;
}

/*
 * Splits the kernel command line in place into words like the kernel's
 * next_arg(): separated by spaces, double quotes group (and are removed).
 * Takes kcp.workload first, then the other kcp.* words.  Stops at "--".
 */
static int parse_cmdline(char *buf)
{
	char *words[256];
	int nr = 0, i, ret = 0;
	char *s = buf;

	while (*s && nr < (int)(ARRAY_SIZE(words))) {
		char *w, *o;
		int quoted = 0;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		w = o = s;
		for (; *s; s++) {
			if (*s == '"') {
				quoted = !quoted;
				continue;
			}
			if (!quoted && (*s == ' ' || *s == '\t' || *s == '\n'))
				break;
			*o++ = *s;
		}
		if (*s)
			s++;
		*o = '\0';
		if (!strcmp(w, "--"))
			break;
		if (!strncmp(w, "kcp.", 4))
			words[nr++] = w + 4;
	}
	for (i = 0; i < nr; i++)
		if (!strncmp(words[i], "workload=", 9) && set_workload(words[i] + 9))
			return -1;
	for (i = 0; i < nr; i++) {
		char *end;

		if (strncmp(words[i], "layout=", 7))
			continue;
		errno = 0;
		layout_seed = strtoull(words[i] + 7, &end, 10);
		if (errno || end == words[i] + 7 || *end || layout_given)
			return guest_error("kernel parameter 'kcp.%s': expected one kcp.layout=N, "
					   "N a decimal number", words[i]);
		layout_given = 1;
	}
	if (workload_id < 0)
		return guest_error("no kcp.workload= on the kernel command line");
	for (i = 0; i < nr && !ret; i++) {
		char *eq = strchr(words[i], '=');

		/* kcp.phase= only pads the command line (vm.h, vm_phase_padding()) */
		if (!strncmp(words[i], "workload=", 9) || !strncmp(words[i], "layout=", 7) ||
		    !strncmp(words[i], "results=", 8) || !strncmp(words[i], "phase=", 6))
			continue;
		if (!eq)
			return guest_error("kernel parameter 'kcp.%s' has no value", words[i]);
		*eq = '\0';
		ret = set_param(words[i], eq + 1, "kcp.");
	}
	return ret;
}

static int parse_host_args(int argc, char **argv)
{
	int i;

	/* --cmdline=STRING: the kernel command line, parsed as init would */
	if (argc == 3 && !strncmp(argv[2], "--cmdline=", 10))
		return parse_cmdline(argv[2] + 10);

	for (i = 2; i < argc; i++)
		if (!strncmp(argv[i], "--workload=", 11) && set_workload(argv[i] + 11))
			return -1;
	if (workload_id < 0)
		return guest_error("--host needs --workload=NAME");
	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!strncmp(argv[i], "--workload=", 11))
			continue;
		if (strncmp(argv[i], "--", 2) || !eq)
			return guest_error("'%s' is not --PARAM=VALUE", argv[i]);
		*eq = '\0';
		if (set_param(argv[i] + 2, eq + 1, "--"))
			return -1;
	}
	return 0;
}

/* Makes sure fds 0-2 are open (the console, else /dev/null), so our files never take them. */
static void open_std_fds(void)
{
	int fd;

	if (fcntl(0, F_GETFD) >= 0 && fcntl(1, F_GETFD) >= 0 && fcntl(2, F_GETFD) >= 0)
		return;
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		fd = open("/dev/null", O_RDWR);
	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		if (fcntl(i, F_GETFD) < 0)
			dup2(fd, i);
	if (fd > 2)
		close(fd);
}

/*
 * The value of kcp.results= on the kernel command line, copied to out, or
 * RESULTS_TTY.  Read before parse_cmdline(), which needs the port for its
 * errors; a quoted value is not unquoted (a device path needs no quotes).
 */
static void results_path(char *out, size_t size, const char *cmdline)
{
	const char *p = cmdline;

	snprintf(out, size, "%s", RESULTS_TTY);
	while (p && *p) {
		size_t len;

		p += strspn(p, " \t\n");
		len = strcspn(p, " \t\n");
		if (len > 12 && !strncmp(p, "kcp.results=", 12)) {
			snprintf(out, size, "%.*s", (int)(len - 12), p + 12);
			return;
		}
		p += len;
	}
}

/* How long init waits for its results port to appear, seconds of guest time. */
#define RESULTS_WAIT_S 10

/*
 * Opens the results port in raw mode, so the tty layer changes no byte.
 * A virtio console's port is added after the host answers the driver's
 * probe, from a workqueue, so hvc0 can appear a little after init starts:
 * wait for it, in 10 ms steps.
 */
static int open_results_tty(const char *path)
{
	struct termios t;
	int fd = -1, tries;

	for (tries = 0; tries < RESULTS_WAIT_S * 100; tries++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 || (errno != ENOENT && errno != ENXIO && errno != ENODEV))
			break;
		nanosleep(&ts, NULL);
	}
	if (fd < 0)
		return -1;
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		t.c_cflag |= CLOCAL;
		cfsetspeed(&t, B115200);
		tcsetattr(fd, TCSANOW, &t);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* Mounts what a workload may need; returns 0 or the first failure's message in why. */
static int mount_all(char *why, size_t size)
{
	static const struct {
		const char *type, *dir;
	} mounts[] = {
		{ "proc", "/proc" },
		{ "sysfs", "/sys" },
		{ "devtmpfs", "/dev" },
		{ "tmpfs", "/tmp" },
	};
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(mounts); i++) {
		mkdir(mounts[i].dir, 0755);
		if (mount(mounts[i].type, mounts[i].dir, mounts[i].type,
			  MS_NOSUID, NULL) && errno != EBUSY && !ret) {
			snprintf(why, size, "cannot mount %s on %s: %s",
				 mounts[i].type, mounts[i].dir, strerror(errno));
			ret = -1;
		}
	}
	return ret;
}

static void finish_output(void)
{
	if (out_fd >= 0 && isatty(out_fd))
		tcdrain(out_fd);
}

/* Bytes of hidden kernel messages copied at most: a run's end stays short. */
#define KMSG_COPY_MAX (64 * 1024)

/*
 * The kernel messages the console did not show, copied to it in the
 * kernel's own "[seconds] text" form: "quiet" keeps KERN_WARNING off the
 * console, and with it lockdep's reports and WARN()'s, which the host looks
 * for there (src/run/findings.h).  Only the kernel's messages of the levels
 * the console hid, up to KERN_WARNING, so an ordinary run copies a few
 * lines; it runs after the meter's power-off mark, outside every count.
 */
static void copy_hidden_kmsg(void)
{
	char rec[4096];
	int console_level = 4;	/* quiet's CONSOLE_LOGLEVEL_QUIET */
	size_t copied = 0;
	ssize_t n;
	int fd = open("/proc/sys/kernel/printk", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n > 0) {
			rec[n] = '\0';
			console_level = (int)strtol(rec, NULL, 10);
		}
		close(fd);
	}
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	while (copied < KMSG_COPY_MAX) {
		char *semi, *nl, *end;
		unsigned long long usec;
		long prio;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten before they were read */
		if (n <= 0)
			break;
		rec[n] = '\0';
		/* "prio,seq,usec,flags;text\n" then " KEY=value" lines */
		prio = strtol(rec, &end, 10);
		if (*end != ',')
			continue;
		strtoull(end + 1, &end, 10);
		if (*end != ',')
			continue;
		usec = strtoull(end + 1, &end, 10);
		semi = strchr(end, ';');
		if (!semi || prio >> 3 || (prio & 7) < console_level || (prio & 7) > 4)
			continue;
		nl = strchr(semi + 1, '\n');
		if (nl)
			*nl = '\0';
		n = dprintf(2, "[%5llu.%06llu] %s\n", usec / 1000000, usec % 1000000, semi + 1);
		if (n > 0)
			copied += (size_t)n;
	}
	close(fd);
}

/* Init's end: flush, sync, power off; never returns, never exits. */
static void __attribute__((__noreturn__)) power_off(void)
{
	finish_output();
	sync();
	kcp_meter_poweroff();
	copy_hidden_kmsg();
	reboot(RB_POWER_OFF);
	dprintf(2, "kcp-guest: power off failed: %s\n", strerror(errno));
	for (;;)
		pause();
}

/* The panic workload, as init: sysrq 'c' if the kernel has it, else init exits. */
static void __attribute__((__noreturn__)) panic_kernel(void)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);

	finish_output();
	sync();
	if (fd >= 0) {
		if (write(fd, "c", 1) < 0)
			dprintf(2, "kcp-guest: sysrq: %s\n", strerror(errno));
		close(fd);
	}
	/* no sysrq: PID 1 exiting panics the kernel ("Attempted to kill init") */
	_exit(1);
}

static int run_workload(void)
{
	static int (*const runners[NR_WORKLOADS])(void) = {
#define WORKLOAD(id, metric, unit, better, flags, profile, summary) [WORKLOAD_##id] = run_##id,
#define PARAM(id, name, type, def, min, max, choices, help)
#include "../src/run/workloads.def"
#undef WORKLOAD
#undef PARAM
	};

	return runners[workload_id]();
}

/*
 * Runs the workload in a child and waits for it, reaping any other child
 * (init inherits orphans).  Returns 0 when it wrote "done", else -1 with
 * an error line written (by the child or here).
 */
/* splitmix64: spreads the bits of a seed over all 64. */
static unsigned long long mix64(unsigned long long x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * The memory layout of the workload, drawn from kcp.layout the way
 * address-space randomization would draw it, but reproducibly: under
 * icount the guest boots with norandmaps, because the kernel's own
 * randomness can be perturbed by host timing (an interrupt landing a few
 * instructions later) and the layout must be the seed's alone.  As the
 * kernel's randomization does, it moves where things start, not their
 * shape: the heap by 1 to 512 pages and the mmap area by 1 to 512 pages
 * (a reserved, inaccessible region above it: always one, so the number of
 * mappings is the same for every seed), which covers every alignment to a
 * 2 MiB page-table boundary, and the stack by 0 to 4080 bytes in 16-byte
 * steps (run_shifted()), its alignment within a page.  The workload's
 * children inherit all three.
 */
static size_t apply_layout(void)
{
	unsigned long long r = mix64(layout_seed);
	size_t heap = ((r & 511) + 1) * 4096, area = (((r >> 9) & 511) + 1) * 4096;
	size_t stack = ((r >> 18) & 255) * 16;

	if (!layout_given)
		return 0;
	if (sbrk((intptr_t)heap) == (void *)-1)
		guest_error_errno("kcp.layout: cannot move the heap");
	if (mmap(NULL, area, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0) == MAP_FAILED)
		guest_error_errno("kcp.layout: cannot move the mmap area");
	return stack;
}

/* Runs the workload with the stack moved down by shift bytes. */
static int __attribute__((__noinline__)) run_shifted(size_t shift)
{
	volatile char *low = shift ? alloca(shift) : NULL;

	if (low)
		low[0] = 0;
	return run_workload();
}

static int supervise(void)
{
	pid_t pid, w;
	int status;

	pid = fork();
	if (pid < 0)
		return guest_error_errno("cannot fork the workload");
	if (!pid) {
		/* with --host, a killed kcp-guest takes its workload along */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (run_shifted(apply_layout()))
			_exit(1);
		kcp_line("done");
		_exit(out_failed ? 1 : 0);
	}
	for (;;) {
		w = waitpid(-1, &status, 0);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return guest_error_errno("waiting for the workload");
		if (w == pid)
			break;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* the child may have written an error line; this one is for the record */
	error_written = 0;
	if (WIFSIGNALED(status))
		return guest_error("workload '%s' was killed by signal %d (%s)",
				   workload_table[workload_id].name, WTERMSIG(status),
				   strsignal(WTERMSIG(status)));
	if (WEXITSTATUS(status) == 1)
		return -1;	/* it wrote its own error line */
	return guest_error("workload '%s' exited with status %d",
			   workload_table[workload_id].name, WEXITSTATUS(status));
}

static int setup_params(void)
{
	values = calloc(nr_workload_params, sizeof(*values));
	numbers = calloc(nr_workload_params, sizeof(*numbers));
	if (!values || !numbers)
		return guest_error("out of memory");
	return 0;
}

static void find_self(const char *argv0)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0)
		self[n] = '\0';
	else
		snprintf(self, sizeof(self), "%s", argv0);
}

static int main_host(int argc, char **argv)
{
	int ret;

	out_fd = 1;
	find_self(argv[0]);
	if (setup_params() || parse_host_args(argc, argv))
		return 2;
	kcp_line("ready boot_s=%.6f workload=%s", boot_s, workload_table[workload_id].name);
	if (out_failed)
		return 1;	/* no one would see the results */
	if (workload_id == WORKLOAD_panic) {
		guest_error("the panic workload only runs as init");
		return 1;
	}
	ret = supervise();
	return ret || out_failed ? 1 : 0;
}

/*
 * The ready line, with the guest's clocksource: the clock every time the
 * guest measures comes from (tsc, hpet, acpi_pm, ...), so a report can say
 * what its numbers count.
 */
static void report_ready(void)
{
	char cs[64] = "";
	int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, cs, sizeof(cs) - 1);
	size_t i;

	if (fd >= 0)
		close(fd);
	cs[n > 0 ? n : 0] = '\0';
	for (i = 0; cs[i]; i++)
		if (!((cs[i] >= 'a' && cs[i] <= 'z') || (cs[i] >= '0' && cs[i] <= '9') ||
		      cs[i] == '_' || cs[i] == '-'))
			break;
	cs[i] = '\0';
	if (cs[0])
		kcp_line("ready boot_s=%.6f workload=%s clocksource=%s", boot_s,
			 workload_table[workload_id].name, cs);
	else
		kcp_line("ready boot_s=%.6f workload=%s", boot_s, workload_table[workload_id].name);
}

static void __attribute__((__noreturn__)) main_init(void)
{
	static char cmdline[CMDLINE_MAX];
	char why[256], port[256];
	int mounted, fd, read_errno = 0;
	ssize_t n;

	init_mode = 1;
	mounted = mount_all(why, sizeof(why));
	open_std_fds();
	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, cmdline, sizeof(cmdline) - 1);
	if (n < 0) {
		read_errno = errno;
		n = 0;
	}
	if (fd >= 0)
		close(fd);
	cmdline[n] = '\0';
	results_path(port, sizeof(port), cmdline);
	out_fd = open_results_tty(port);
	if (out_fd < 0) {
		/* the host sees no results and fails the run; the console says why */
		out_fd = 1;
		guest_error_errno("cannot open %s", port);
		power_off();
	}
	if (mounted) {
		guest_error("%s", why);
		power_off();
	}
	find_self("/init");
	if (setup_params())
		power_off();
	if (read_errno) {
		errno = read_errno;
		guest_error_errno("cannot read /proc/cmdline");
		power_off();
	}
	if (parse_cmdline(cmdline))
		power_off();
	report_ready();
	if (workload_id == WORKLOAD_panic)
		panic_kernel();
	supervise();
	power_off();
}

int main(int argc, char **argv)
{
	struct timespec ts;

	if (argc > 1 && !strcmp(argv[1], "--exit"))
		_exit(0);
	clock_gettime(CLOCK_BOOTTIME, &ts);
	boot_s = ts.tv_sec + ts.tv_nsec / 1e9;

	if (getpid() == 1) {
		main_init();	/* never returns */
	}
	if (argc > 1 && !strcmp(argv[1], "--host"))
		return main_host(argc, argv);
	fputs(usage_text, stderr);
	return 2;
}
