/* guestfs.c: the libguestfs workload: libguestfs-test-tool on the host boots the variant's kernel as its appliance. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kconfig/kconfig.h"
#include "plan/harness.h"
#include "run/guestfs.h"
#include "run/meter.h"
#include "run/protocol.h"
#include "run/workload-spec.h"
#include "util/run-command.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* The tool's output: libguestfs's debug output with the appliance's console (~100 KiB). */
#define CONSOLE_READ_MAX ((size_t)4 << 20)
/* The unmeasured first run also builds the appliance (supermin, ~10-30 s). */
#define PREPARE_EXTRA_SECONDS 300.0

char *guestfs_kernel_dir(const char *experiment_dir, const char *config_hash)
{
	return xstrfmt("%s/guestfs/%.16s", experiment_dir, config_hash);
}

int guestfs_kernel_release(struct strbuf *out, const char *bzimage)
{
	unsigned char hdr[0x210], text[256];
	unsigned offset;
	ssize_t n;
	size_t len;
	int fd = open(bzimage, O_RDONLY | O_CLOEXEC), ret = -1;

	if (fd < 0)
		return error_errno("cannot open kernel '%s'", bzimage);
	n = pread(fd, hdr, sizeof(hdr), 0);
	/* The setup header: "HdrS" at 0x202, kernel_version (an offset from 0x200) at 0x20e. */
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4)) {
		error("'%s' is not a bzImage (no setup header)", bzimage);
		goto out;
	}
	offset = (unsigned)hdr[0x20e] | (unsigned)hdr[0x20f] << 8;
	n = offset ? pread(fd, text, sizeof(text) - 1, (off_t)offset + 0x200) : 0;
	if (n <= 0) {
		error("'%s' names no kernel version in its header", bzimage);
		goto out;
	}
	text[n] = '\0';
	len = strcspn((const char *)text, " ");
	if (!len || len == (size_t)n) {
		error("'%s' names no kernel version in its header", bzimage);
		goto out;
	}
	strbuf_add(out, text, len);
	ret = 0;
out:
	close(fd);
	return ret;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int guestfs_last_timestamp(const char *text, size_t len, double *out)
{
	size_t i;

	/* Backwards: "[", spaces, digits, ".", six digits, "]" (printk's "[%5lu.%06lu]"). */
	for (i = len; i-- > 0;) {
		size_t j = i + 1, k;
		unsigned long long whole = 0, frac = 0;

		if (text[i] != '[')
			continue;
		while (j < len && text[j] == ' ')
			j++;
		if (j >= len || !is_digit(text[j]))
			continue;
		for (; j < len && is_digit(text[j]) && whole < 1000000000ULL; j++)
			whole = whole * 10 + (unsigned long long)(text[j] - '0');
		if (j >= len || text[j] != '.')
			continue;
		for (k = 0, j++; k < 6 && j < len && is_digit(text[j]); k++, j++)
			frac = frac * 10 + (unsigned long long)(text[j] - '0');
		if (k < 6 || j >= len || text[j] != ']')
			continue;
		*out = (double)whole + (double)frac / 1e6;
		return 0;
	}
	return -1;
}

/* The first line of text that starts with prefix, without its end, appended to out: 1 if found. */
static int add_first_line(struct strbuf *out, const char *text, size_t len, const char *prefix)
{
	const char *p = text, *end = text + len;
	size_t plen = strlen(prefix);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if ((size_t)(eol - p) >= plen && !memcmp(p, prefix, plen)) {
			while (eol > p && (eol[-1] == '\r' || eol[-1] == ' '))
				eol--;
			strbuf_add(out, p, (size_t)(eol - p));
			return 1;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

void guestfs_results(struct strbuf *out, const char *console, size_t len,
		     int exit_code, int signal, int timed_out)
{
	struct strbuf why = STRBUF_INIT;
	double t;

	if (timed_out)
		return;
	if (!exit_code && memmem(console, len, GUESTFS_OK_LINE, strlen(GUESTFS_OK_LINE))) {
		if (!guestfs_last_timestamp(console, len, &t))
			strbuf_addf(out, "KCP 1 sample workload=libguestfs iter=0 metric=time "
				    "unit=s better=lower value=%.6f\n", t);
		strbuf_addstr(out, "KCP 1 done\n");
		return;
	}
	if (signal)
		strbuf_addf(&why, GUESTFS_TOOL " was killed by signal %d (%s)", signal,
			    strsignal(signal));
	else if (exit_code)
		strbuf_addf(&why, GUESTFS_TOOL " exited with status %d", exit_code);
	else
		strbuf_addstr(&why, GUESTFS_TOOL " exited without '" GUESTFS_OK_LINE "'");
	strbuf_addstr(&why, ": ");
	if (!add_first_line(&why, console, len, "libguestfs: error: ") &&
	    !add_first_line(&why, console, len, "libguestfs-test-tool: "))
		strbuf_setlen(&why, why.len - 2);
	strbuf_addstr(out, "KCP 1 error msg=");
	protocol_quote(out, why.buf);
	strbuf_addch(out, '\n');
	strbuf_release(&why);
}

/* The tool: the workload's tool parameter, or GUESTFS_TOOL in PATH. */
static const char *tool_path(const struct vm_config *cfg)
{
	const char *tool = cfg->workload ? workload_spec_get(cfg->workload, "tool") : NULL;

	return tool ? tool : GUESTFS_TOOL;
}

static int write_empty(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);

	if (fd < 0)
		return error_errno("cannot create '%s'", path);
	close(fd);
	return 0;
}

/* kdir/GUESTFS_HV_NAME -> this executable, replaced when it points elsewhere. */
static int link_hv(const char *kdir)
{
	struct strbuf have = STRBUF_INIT;
	char *self = realpath("/proc/self/exe", NULL);
	char *link = xstrfmt("%s/" GUESTFS_HV_NAME, kdir);
	int ret = -1;

	if (!self) {
		error_errno("cannot find this executable (/proc/self/exe)");
		goto out;
	}
	if (!strbuf_readlink(&have, link) && !strcmp(have.buf, self)) {
		ret = 0;
		goto out;
	}
	unlink(link);
	if (symlink(self, link)) {
		error_errno("cannot link '%s' to '%s'", link, self);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&have);
	free(self);
	free(link);
	return ret;
}

/* modules/<release>/modules.dep, cache/ and the hv link in kdir. */
static int setup_kdir(const char *kdir, const char *release)
{
	char *modules = xstrfmt("%s/modules/%s", kdir, release);
	char *dep = xstrfmt("%s/modules.dep", modules);
	char *cache = xstrfmt("%s/cache", kdir);
	int ret = -1;

	if (mkdir_p(modules, 0777) || mkdir_p(cache, 0777))
		goto out;
	if (access(dep, F_OK) && write_empty(dep))
		goto out;
	ret = link_hv(kdir);
out:
	free(modules);
	free(dep);
	free(cache);
	return ret;
}

/* The environment of a run of the tool: what libguestfs and the wrapper read. */
/* Removes name from the environment, unless for_shell (env(1) cannot say that). */
static void unset(struct strvec *env, const char *name, int for_shell)
{
	if (!for_shell)
		strvec_push(env, name);
}

/*
 * The environment of a run of the tool: what libguestfs and the wrapper
 * read.  for_shell: only the settings, for a command to paste.
 */
static void tool_env(struct strvec *env, const struct vm_config *cfg, enum vm_accel accel,
		     const char *kdir, const char *release, const char *hv_log,
		     const char *meter_out, int for_shell)
{
	static const char *const ours_only[] = {
		/* The tool is verbose already; these would change what it does. */
		"LIBGUESTFS_DEBUG", "LIBGUESTFS_TRACE", "LIBGUESTFS_PATH",
		"LIBGUESTFS_MEMSIZE", "LIBGUESTFS_APPEND", "LIBGUESTFS_QEMU",
	};
	size_t i;

	char *kernel = realpath(cfg->kernel, NULL);
	enum vm_clock clock;
	int shift;

	strvec_pushf(env, "SUPERMIN_KERNEL=%s", kernel ? kernel : cfg->kernel);
	strvec_pushf(env, "SUPERMIN_KERNEL_VERSION=%s", release);
	strvec_pushf(env, "SUPERMIN_MODULES=%s/modules/%s", kdir, release);
	strvec_push(env, "LIBGUESTFS_BACKEND=direct");
	if (accel == VM_ACCEL_TCG)
		strvec_push(env, "LIBGUESTFS_BACKEND_SETTINGS=force_tcg");
	else
		unset(env, "LIBGUESTFS_BACKEND_SETTINGS", for_shell);
	strvec_pushf(env, "LIBGUESTFS_CACHEDIR=%s/cache", kdir);
	strvec_pushf(env, "LIBGUESTFS_HV=%s/" GUESTFS_HV_NAME, kdir);
	for (i = 0; i < ARRAY_SIZE(ours_only); i++)
		unset(env, ours_only[i], for_shell);
	strvec_pushf(env, "KCP_HV_QEMU=%s", cfg->qemu ? cfg->qemu : VM_DEFAULT_QEMU);
	strvec_pushf(env, "KCP_HV_ACCEL=%s", vm_accel_name(accel));
	/* the clock the run records is the one the wrapper gives qemu: icount-idle too */
	if (vm_effective_clock(&clock, &shift, cfg, accel) || !vm_clock_is_icount(clock))
		strvec_push(env, "KCP_HV_CLOCK=host");
	else
		strvec_pushf(env, "KCP_HV_CLOCK=%s:%d", vm_clock_name(clock), shift);
	strvec_pushf(env, "KCP_HV_LAYOUT=%llu", (unsigned long long)cfg->layout_seed);
	if (cfg->cpu)
		strvec_pushf(env, "KCP_HV_CPU=%s", cfg->cpu);
	else
		unset(env, "KCP_HV_CPU", for_shell);
	strvec_pushf(env, "KCP_HV_MEM=%d", cfg->mem_mb);
	strvec_pushf(env, "KCP_HV_SMP=%d", cfg->smp);
	if (hv_log)
		strvec_pushf(env, "KCP_HV_LOG=%s", hv_log);
	else
		unset(env, "KCP_HV_LOG", for_shell);
	/* the meter in the appliance's qemu: its map, and where its counts go */
	if (vm_meter_loaded(cfg, accel)) {
		strvec_pushf(env, "KCP_HV_METER=%s", cfg->meter);
		if (cfg->meter_map)
			strvec_pushf(env, "KCP_HV_METER_MAP=%s", cfg->meter_map);
		else
			unset(env, "KCP_HV_METER_MAP", for_shell);
		strvec_pushf(env, "KCP_HV_METER_OUT=%s", meter_out);
	} else {
		unset(env, "KCP_HV_METER", for_shell);
		unset(env, "KCP_HV_METER_MAP", for_shell);
		unset(env, "KCP_HV_METER_OUT", for_shell);
	}
	free(kernel);
}

/*
 * The kernel must carry the profiles the workload needs
 * (workload_spec_profiles(): libguestfs's), or every run fails in the
 * appliance: 0, or -1 with why set.
 */
static int check_kernel_config(const struct vm_config *cfg, struct strbuf *why)
{
	struct workload_spec libguestfs = WORKLOAD_SPEC_INIT;
	struct strvec need = STRVEC_INIT;
	struct strbuf missing = STRBUF_INIT;
	struct kconfig *kc = NULL;
	size_t i;
	int ret = 0;

	if (!cfg->config_path)
		return 0;
	if (kconfig_load(&kc, cfg->config_path, 0)) {
		strbuf_addf(why, "cannot read '%s'", cfg->config_path);
		return -1;
	}
	libguestfs.id = WORKLOAD_libguestfs;
	workload_spec_profiles(cfg->workload ? cfg->workload : &libguestfs, &need);
	for (i = 0; i < need.nr && !ret; i++) {
		const struct harness_profile *p = harness_find(need.v[i], HARNESS_DEFAULT_ARCH);

		if (!p)
			BUG("no harness profile '%s'", need.v[i]);
		if (harness_check(p, kc, &missing))
			continue;
		strbuf_addf(why, "%s lacks what libguestfs's appliance needs (harness profile "
			    "%s): %s; plan with --harness %s",
			    cfg->variant ? cfg->variant : cfg->kernel, p->name, missing.buf, p->name);
		ret = -1;
	}
	kconfig_free(kc);
	strvec_clear(&need);
	strbuf_release(&missing);
	return ret;
}

/* What finishing a run of the tool needs beside its job. */
struct tool_run {
	enum vm_accel accel;
};

/*
 * After the tool has ended: its output (dir/console.txt) classified into
 * *out, and the meter's counts read.
 */
static void finish_tool(struct vm_job *job, struct vm_result *out)
{
	const struct vm_config *cfg = vm_job_config(job);
	struct tool_run *tr = vm_job_data(job);
	const struct child_process *cp = vm_job_child(job);
	struct strbuf console = STRBUF_INIT, results = STRBUF_INIT;
	char *console_path = xstrfmt("%s/console.txt", cfg->run_dir);
	char *results_path = xstrfmt("%s/results.txt", cfg->run_dir);
	char *meter_out = xstrfmt("%s/" METER_FILE, cfg->run_dir);
	struct vm_config metered = *cfg;
	int fd;

	fd = open(console_path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		struct stat st;

		if (!fstat(fd, &st) && (size_t)st.st_size > CONSOLE_READ_MAX)
			lseek(fd, st.st_size - (off_t)CONSOLE_READ_MAX, SEEK_SET);
		if (strbuf_read_fd(&console, fd, 0) < 0)
			warning("cannot read '%s': %s", console_path, strerror(errno));
		close(fd);
	}
	if (!cp->start_errno) {
		guestfs_results(&results, console.buf, console.len, cp->exit_code, cp->signal,
				cp->timed_out);
		if (strbuf_write_file(&results, results_path))
			warning("cannot write '%s'", results_path);
	}
	out->accel = tr->accel;
	vm_classify(out, cp, console.buf, console.len, results.buf, results.len, NULL);
	/* the appliance's kernel prints its console into the tool's output */
	findings_scan(&out->findings, console.buf, console.len);
	out->meter_loaded = vm_meter_loaded(cfg, tr->accel);
	if (out->meter_loaded && !cp->start_errno) {
		metered.meter_out = meter_out;
		vm_read_meter(out, &metered);
	}
	if (cp->start_errno) {
		/* vm_classify() would name qemu: it was the tool that did not start. */
		strbuf_reset(&out->reason);
		strbuf_addf(&out->reason, "cannot start '%s': %s (install libguestfs-tools)",
			    tool_path(cfg), strerror(cp->start_errno));
	}
	vm_effective_clock(&out->clock, &out->icount_shift, cfg, tr->accel);
	free(tr);
	strbuf_release(&console);
	strbuf_release(&results);
	free(console_path);
	free(results_path);
	free(meter_out);
}

/*
 * Starts one run of the tool with its output in dir/console.txt; the job's
 * finish classifies it into *out.  timeout: seconds.
 */
static struct vm_job *start_tool(const struct vm_config *cfg, enum vm_accel accel,
				 const char *kdir, const char *release, const char *dir,
				 double timeout)
{
	struct tool_run *tr = xcalloc(1, sizeof(*tr));
	struct vm_job *job;
	struct child_process *cp;
	char *console_path = xstrfmt("%s/console.txt", dir);
	char *results_path = xstrfmt("%s/results.txt", dir);
	char *hv_log = xstrfmt("%s/hv.txt", dir);
	char *meter_out = xstrfmt("%s/" METER_FILE, dir);

	tr->accel = accel;
	job = vm_job_new(cfg, dir, finish_tool, tr);
	cp = vm_job_child(job);
	/* A stale file from an earlier run must not pass for this one's output. */
	unlink(console_path);
	unlink(results_path);
	unlink(hv_log);
	unlink(meter_out);
	strvec_push(&cp->args, tool_path(cfg));
	tool_env(&cp->env, cfg, accel, kdir, release, hv_log, meter_out, 0);
	cp->in.mode = CHILD_IO_NULL;
	cp->out.mode = CHILD_IO_FILE;
	cp->out.path = console_path;	/* opened by start_command() */
	cp->err.mode = CHILD_IO_TO_STDOUT;
	cp->timeout = timeout;
	cp->kill_on_parent_death = 1;
	cp->silent_exec_failure = 1;
	start_command(cp);
	cp->out.path = NULL;
	free(console_path);
	free(results_path);
	free(hv_log);
	free(meter_out);
	return job;
}

/* One run of the tool, waited for: start_tool(), then its finish. */
static void run_tool(struct vm_result *out, const struct vm_config *cfg, enum vm_accel accel,
		     const char *kdir, const char *release, const char *dir, double timeout)
{
	struct vm_job *job = start_tool(cfg, accel, kdir, release, dir, timeout);
	struct child_process *cp = vm_job_process(job);

	if (cp)
		finish_command(cp);
	vm_job_finish(job, out);
}

/*
 * The unmeasured first run of a kernel: supermin builds its appliance in
 * kdir/cache.  0 when done (now or before), else -1 with *out saying why.
 */
static int prepare(struct vm_result *out, const struct vm_config *cfg, enum vm_accel accel,
		   const char *kdir, const char *release, double timeout)
{
	char *stamp = xstrfmt("%s/prepared", kdir);
	char *dir = xstrfmt("%s/prepare", kdir);
	int ret = -1;

	if (!access(stamp, F_OK)) {
		ret = 0;
		goto out;
	}
	if (mkdir_p(dir, 0777)) {
		out->status = RUN_START_FAILED;
		strbuf_addf(&out->reason, "cannot create '%s'", dir);
		goto out;
	}
	run_tool(out, cfg, accel, kdir, release, dir, timeout + PREPARE_EXTRA_SECONDS);
	if (out->status == RUN_OK) {
		if (!write_empty(stamp))
			ret = 0;
		else
			out->status = RUN_START_FAILED;
	} else if (out->status != RUN_START_FAILED) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "building and booting the appliance (see %s/console.txt): %s",
			    dir, out->reason.buf);
		strbuf_reset(&out->reason);
		strbuf_addbuf(&out->reason, &why);
		strbuf_release(&why);
	}
out:
	free(stamp);
	free(dir);
	return ret;
}

/* The job of a run that ended before it started (the appliance failed): its clock only. */
static void finish_nothing(struct vm_job *job, struct vm_result *out)
{
	struct tool_run *tr = vm_job_data(job);

	vm_effective_clock(&out->clock, &out->icount_shift, vm_job_config(job), tr->accel);
	free(tr);
}

int guestfs_start(struct vm_job **job, struct vm_result *out, const struct vm_config *cfg,
		  const char *kdir, const char *run_dir)
{
	struct strbuf release = STRBUF_INIT;
	double timeout = cfg->timeout > 0 ? cfg->timeout : VM_DEFAULT_TIMEOUT;
	struct tool_run *tr;
	enum vm_accel accel;
	int ret = -1;

	*job = NULL;
	vm_result_release(out);
	out->workload = "libguestfs";
	accel = vm_resolve_accel(cfg);
	out->accel = accel;
	out->status = RUN_START_FAILED;
	if (accel == VM_ACCEL_RUNNER) {
		strbuf_addstr(&out->reason, "the libguestfs workload runs " GUESTFS_TOOL
			      " on this host: it cannot use --runner");
		goto out;
	}
	if (vm_effective_clock(&out->clock, &out->icount_shift, cfg, accel)) {
		strbuf_addf(&out->reason, "--clock icount needs TCG, not %s", vm_accel_name(accel));
		goto out;
	}
	if (check_kernel_config(cfg, &out->reason))
		goto out;
	if (guestfs_kernel_release(&release, cfg->kernel) || setup_kdir(kdir, release.buf)) {
		strbuf_addf(&out->reason, "cannot set up '%s' for the libguestfs workload", kdir);
		goto out;
	}
	out->status = RUN_OK;
	ret = 0;
	if (prepare(out, cfg, accel, kdir, release.buf, timeout)) {
		if (out->status == RUN_START_FAILED) {
			ret = -1;
			goto out;
		}
		tr = xcalloc(1, sizeof(*tr));
		tr->accel = accel;
		*job = vm_job_new(cfg, run_dir, finish_nothing, tr);
		goto out;
	}
	*job = start_tool(cfg, accel, kdir, release.buf, run_dir, timeout);
out:
	strbuf_release(&release);
	return ret;
}

int guestfs_run(struct vm_result *out, const struct vm_config *cfg, const char *kdir,
		const char *run_dir)
{
	struct vm_job *job;
	struct child_process *cp;

	if (guestfs_start(&job, out, cfg, kdir, run_dir))
		return -1;
	cp = vm_job_process(job);
	if (cp)
		finish_command(cp);
	return vm_job_finish(job, out);
}

int guestfs_format_command(struct strbuf *out, const struct vm_config *cfg, const char *kdir)
{
	struct strvec all = STRVEC_INIT;
	struct strbuf release = STRBUF_INIT;
	enum vm_accel accel = vm_resolve_accel(cfg);
	int ret = -1;

	if (guestfs_kernel_release(&release, cfg->kernel) || setup_kdir(kdir, release.buf))
		goto out;
	strvec_push(&all, "env");
	tool_env(&all, cfg, accel, kdir, release.buf, NULL, METER_FILE, 1);
	strvec_push(&all, tool_path(cfg));
	vm_quote_argv(out, all.v);
	ret = 0;
out:
	strvec_clear(&all);
	strbuf_release(&release);
	return ret;
}

static int env_int(const char *name)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtol(v, &end, 10);
	return errno || *end || n < 0 || n > 1 << 20 ? 0 : (int)n;
}

int guestfs_hv_main(int argc UNUSED, const char **argv)
{
	struct vm_config cfg;
	struct strvec args = STRVEC_INIT;
	const char *clock = getenv("KCP_HV_CLOCK"), *accel = getenv("KCP_HV_ACCEL");
	const char *layout = getenv("KCP_HV_LAYOUT"), *log = getenv("KCP_HV_LOG");
	enum vm_accel a = VM_ACCEL_TCG;

	vm_config_init(&cfg);
	cfg.qemu = getenv("KCP_HV_QEMU");
	cfg.cpu = getenv("KCP_HV_CPU");
	if (cfg.cpu && !*cfg.cpu)
		cfg.cpu = NULL;
	cfg.mem_mb = env_int("KCP_HV_MEM");
	cfg.smp = env_int("KCP_HV_SMP");
	cfg.clock = VM_CLOCK_HOST;
	if (clock && vm_clock_parse(&cfg.clock, &cfg.icount_shift, clock))
		return 127;
	if (accel && vm_accel_parse(&a, accel))
		return 127;
	if (layout)
		cfg.layout_seed = strtoull(layout, NULL, 10);
	cfg.meter = getenv("KCP_HV_METER");
	cfg.meter_map = getenv("KCP_HV_METER_MAP");
	cfg.meter_out = getenv("KCP_HV_METER_OUT");
	if (cfg.meter && (!*cfg.meter || !cfg.meter_out || !*cfg.meter_out))
		cfg.meter = NULL;
	vm_wrap_qemu_argv(&args, &cfg, a, argv);
	if (log && *log && strvec_find(&args, "-kernel") >= 0) {
		struct strbuf sb = STRBUF_INIT;
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);

		vm_quote_argv(&sb, args.v);
		strbuf_addch(&sb, '\n');
		if (fd >= 0) {
			xwrite_all(fd, sb.buf, sb.len);
			close(fd);
		}
		strbuf_release(&sb);
	}
	execvp(args.v[0], (char *const *)args.v);
	error_errno("cannot execute '%s'", args.v[0]);
	strvec_clear(&args);
	return 127;
}
