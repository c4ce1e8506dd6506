/* vm.c: boot one kernel under qemu (or a --runner) for one run, bounded, and classify the result. */
/*
 * The run: its clock and accelerator (the KVM probe), its files, the
 * meter's counts and a cmd program's numbers.  Its command line is
 * vm-command.c's, what became of it vm-classify.c's; the protocol is
 * protocol.c, workloads workload-spec.c.
 */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "plan/arch.h"
#include "run/extract.h"
#include "run/meter.h"
#include "run/protocol.h"
#include "run/vm-parts.h"
#include "util/run-command.h"
#include "util/usage.h"
#include "run/vm.h"
#include "run/workload-spec.h"
#include "run/workload-table.h"
#include "util/wrapper.h"

/* The end of the console is enough to find a panic and show the tail. */
#define CONSOLE_READ_MAX ((size_t)1 << 20)
#define QEMU_LOG_READ_MAX ((size_t)64 << 10)
/* A cmd program's output as the guest sends it: 64 KiB and a line about what it left out. */
#define OUTPUT_READ_MAX ((size_t)1 << 20)

void vm_config_init(struct vm_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->icount_shift = -1;
}

/* A run of cfg waits for I/O: the host's programs over 9p, scratch disks. */
static int waits_for_io(const struct vm_config *cfg)
{
	return cfg->workload && ((workload_table[cfg->workload->id].flags & WL_COMMAND) ||
				 cfg->workload->nr_scratch);
}

int vm_effective_clock(enum vm_clock *out, int *shift, const struct vm_config *cfg,
		       enum vm_accel accel)
{
	*out = VM_CLOCK_HOST;
	*shift = -1;
	if (cfg->clock == VM_CLOCK_HOST || (cfg->clock == VM_CLOCK_AUTO && accel != VM_ACCEL_TCG))
		return 0;
	if (accel != VM_ACCEL_TCG)
		return error("--clock %s needs TCG; this run uses %s (use --clock host)",
			     vm_clock_name(cfg->clock), vm_accel_name(accel));
	if (cfg->clock == VM_CLOCK_AUTO)
		*out = waits_for_io(cfg) ? VM_CLOCK_ICOUNT_IDLE : VM_CLOCK_ICOUNT;
	else
		*out = cfg->clock;
	*shift = cfg->icount_shift >= 0 ? cfg->icount_shift : VM_DEFAULT_ICOUNT_SHIFT;
	return 0;
}

/* 2001-01-01T00:00:00 UTC and the 30 years after it, in seconds. */
#define RTC_EPOCH 978307200
#define RTC_SPAN (30ULL * 365 * 86400)

void vm_rtc_base(struct strbuf *out, uint64_t layout_seed)
{
	time_t t = (time_t)(RTC_EPOCH + layout_seed % RTC_SPAN);
	struct tm tm;

	gmtime_r(&t, &tm);
	strbuf_addf(out, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900,
		    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

void vm_result_init(struct vm_result *res)
{
	memset(res, 0, sizeof(*res));
	strbuf_init(&res->reason, 0);
	strbuf_init(&res->console_tail, 0);
	protocol_result_init(&res->proto);
	res->exit_code = -1;
	res->icount_shift = -1;
}

void vm_result_release(struct vm_result *res)
{
	if (!res)
		return;
	strbuf_release(&res->reason);
	strbuf_release(&res->console_tail);
	protocol_result_release(&res->proto);
	meter_result_release(res->meter);
	free(res->meter);
	findings_release(&res->findings);
	vm_result_init(res);
}

/* Whether KVM could run arch here at all: only the host's own arch. */
static int is_host_arch(const char *arch)
{
	const struct arch *host = arch_host();

	return host && !strcmp(host->name, arch ? arch : VM_DEFAULT_ARCH);
}

/* The probe's answer, once per process: 0 not probed yet. */
static enum vm_accel probed_accel;

void vm_forget_probe(void)
{
	probed_accel = VM_ACCEL_AUTO;
}

static int file_size(const char *path, off_t *out)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	*out = st.st_size;
	return 0;
}

/*
 * Boots cfg under KVM in a scratch directory for a few seconds.  KVM works
 * when the guest printed anything at all: the console without "quiet"
 * shows the kernel banner as soon as the serial console is up.
 */
static enum vm_accel probe_kvm(const struct vm_config *run_cfg)
{
	struct vm_config probe = *run_cfg, *cfg = &probe;
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf log = STRBUF_INIT;
	char templ[] = "/tmp/kcp-kvm-probe-XXXXXX";
	char *console = NULL, *results = NULL;
	off_t csize = 0, rsize = 0;
	enum vm_accel accel = VM_ACCEL_TCG;
	double start = now_seconds();
	int fd;

	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		note("kvm probe: cannot open /dev/kvm: %s; using tcg", strerror(errno));
		return VM_ACCEL_TCG;
	}
	close(fd);
	if (!cfg->kernel || !cfg->initramfs) {
		note("kvm probe: no kernel to boot; using tcg");
		return VM_ACCEL_TCG;
	}
	if (!mkdtemp(templ)) {
		error_errno("kvm probe: cannot create a directory in /tmp");
		return VM_ACCEL_TCG;
	}
	console = xstrfmt("%s/console.txt", templ);
	results = xstrfmt("%s/results.txt", templ);
	/* The shortest run of the same machine: the boot workload, no disk. */
	probe.workload = NULL;
	probe.disk = NULL;
	probe.run_dir = templ;
	vm_build_argv(&cp.args, cfg, VM_ACCEL_KVM, console, results, 0);
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &log;
	cp.out.cap = 4096;
	cp.err.mode = CHILD_IO_TO_STDOUT;
	cp.timeout = VM_KVM_PROBE_SECONDS;
	cp.grace = 1;
	cp.silent_exec_failure = 1;
	cp.contain = 1;
	if (start_command(&cp)) {
		note("kvm probe: cannot start '%s': %s; using tcg",
		     cp.args.v[0], strerror(cp.start_errno));
		goto out;
	}
	finish_command(&cp);
	file_size(console, &csize);
	file_size(results, &rsize);
	if (csize > 0 || rsize > 0) {
		accel = VM_ACCEL_KVM;
		note("kvm probe: the guest booted in %.1f s; using kvm", now_seconds() - start);
	} else if (cp.timed_out) {
		note("kvm probe: no output within %g s; using tcg", VM_KVM_PROBE_SECONDS);
	} else {
		struct strbuf why = STRBUF_INIT;

		/* qemu's first complaint says why ("failed to set MSR 0x10a"). */
		child_process_describe(&why, &cp);
		strbuf_addstr(&why, " without output");
		strbuf_setlen(&log, strcspn(log.buf, "\n"));
		if (log.len)
			strbuf_addf(&why, " (%s)", log.buf);
		note("kvm probe: qemu %s; using tcg", why.buf);
		strbuf_release(&why);
	}
out:
	unlink(console);
	unlink(results);
	rmdir(templ);
	free(console);
	free(results);
	strbuf_release(&log);
	child_process_release(&cp);
	return accel;
}

enum vm_accel vm_resolve_accel(const struct vm_config *cfg)
{
	if (cfg->runner)
		return VM_ACCEL_RUNNER;
	if (cfg->accel != VM_ACCEL_AUTO)
		return cfg->accel;
	/* KVM runs only the host's own arch: nothing to probe for another. */
	if (!is_host_arch(cfg->arch))
		return VM_ACCEL_TCG;
	if (probed_accel == VM_ACCEL_AUTO)
		probed_accel = probe_kvm(cfg);
	return probed_accel;
}

/* Reads at most max bytes from the end of path; a missing file reads as empty. */
static void read_tail(struct strbuf *sb, const char *path, size_t max)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (!fstat(fd, &st) && (size_t)st.st_size > max)
		lseek(fd, st.st_size - (off_t)max, SEEK_SET);
	if (strbuf_read_fd(sb, fd, 0) < 0)
		warning("cannot read '%s': %s", path, strerror(errno));
	if (sb->len > max)
		strbuf_setlen(sb, max);
	close(fd);
}

/*
 * Reads the first max + 1 bytes of path at most, so that more than max
 * shows; a missing file reads as empty.
 */
static void read_head(struct strbuf *sb, const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	while (sb->len <= max) {
		size_t room = max + 1 - sb->len;
		ssize_t n;

		strbuf_grow(sb, room < 65536 ? room : 65536);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1 < room ?
			 sb->alloc - sb->len - 1 : room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			warning("cannot read '%s': %s", path, strerror(errno));
		if (n <= 0)
			break;
		strbuf_setlen(sb, sb->len + (size_t)n);
	}
	close(fd);
}

/* Sparse images for the scratch disks; 0, or -1 with the reason in why. */
static int make_scratch(const struct vm_config *cfg, struct strbuf *why)
{
	size_t i;

	for (i = 0; i < vm_nr_scratch(cfg); i++) {
		char *image = vm_scratch_image(cfg, i);
		int fd, failed;

		if (!image)
			continue;
		/* A new file: whatever was there (a link into the host) is not opened. */
		if (unlink(image) && errno != ENOENT)
			fd = -1;
		else
			fd = open(image, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		failed = fd < 0 || ftruncate(fd, (off_t)cfg->workload->scratch[i].bytes);
		if (failed)
			strbuf_addf(why, "cannot make the scratch disk '%s': %s", image,
				    strerror(errno));
		if (fd >= 0)
			close(fd);
		free(image);
		if (failed)
			return -1;
	}
	return 0;
}

static void remove_scratch(const struct vm_config *cfg)
{
	size_t i;

	for (i = 0; i < vm_nr_scratch(cfg); i++) {
		char *image = vm_scratch_image(cfg, i);

		if (image)
			unlink(image);
		free(image);
	}
}

/*
 * The meter's counts of a run that loaded it, and the workload's
 * "instructions" samples from them: a run that was ok without them is
 * malformed (the meter is part of the measurement).
 */
void vm_read_meter(struct vm_result *out, const struct vm_config *cfg)
{
	struct strbuf why = STRBUF_INIT;
	char *path = cfg->meter_out ? xstrdup(cfg->meter_out) : vm_run_file(cfg, METER_FILE);
	struct meter_result *m = xmalloc(sizeof(*m));

	meter_result_init(m);
	if (!meter_read(m, path, &why)) {
		out->meter = m;
		m = NULL;
		if (out->status == RUN_OK &&
		    meter_add_samples(&out->proto, out->meter, out->workload, &why))
			out->status = RUN_MALFORMED;
	} else if (out->status == RUN_OK) {
		out->status = RUN_MALFORMED;
	}
	if (out->status == RUN_MALFORMED && why.len && !out->reason.len)
		strbuf_addf(&out->reason, "the meter: %s", why.buf);
	meter_result_release(m);
	free(m);
	free(path);
	strbuf_release(&why);
}

/* A complete cmd run: the numbers its --extract options take from its output. */
static void extract_output(struct vm_result *out, const struct vm_config *cfg)
{
	const struct workload_spec *spec = cfg->workload;
	struct strbuf output = STRBUF_INIT, why = STRBUF_INIT;
	char *path;

	if (out->status != RUN_OK || !vm_runs_command(cfg) || !spec->nr_extracts)
		return;
	path = vm_run_file(cfg, "output.txt");
	read_tail(&output, path, OUTPUT_READ_MAX);
	if (extract_samples(&out->proto, workload_table[spec->id].name, spec->extracts,
			    spec->nr_extracts, output.buf, output.len, &why)) {
		out->status = RUN_MALFORMED;
		strbuf_addf(&out->reason, "the program's output: %s", why.buf);
	} else {
		long long cut;

		/* Said in the run (stored as its note): its numbers came from the end only. */
		extract_skip_cut(output.buf, output.len, &cut);
		if (cut)
			strbuf_addf(&out->reason, "the program's output was cut: the guest kept "
				    "its last 64 KiB, the first %lld bytes are left out", cut);
	}
	free(path);
	strbuf_release(&output);
	strbuf_release(&why);
}

/*
 * A run under way: its process, the settings it was started with (cfg,
 * with run_dir its own copy of dir) and what finishes it.
 */
struct vm_job {
	struct child_process cp;
	struct vm_config cfg;
	char *dir;
	vm_job_finish_fn finish;
	void *data;
};

struct vm_job *vm_job_new(const struct vm_config *cfg, const char *dir, vm_job_finish_fn finish,
			  void *data)
{
	struct vm_job *job = xcalloc(1, sizeof(*job));

	child_process_init(&job->cp);
	job->cfg = *cfg;
	job->dir = xstrdup(dir);
	job->cfg.run_dir = job->dir;
	job->finish = finish;
	job->data = data;
	return job;
}

struct child_process *vm_job_process(struct vm_job *job)
{
	return job->cp.start_errno || job->cp.pid <= 0 ? NULL : &job->cp;
}

struct child_process *vm_job_child(struct vm_job *job)
{
	return &job->cp;
}

const struct vm_config *vm_job_config(const struct vm_job *job)
{
	return &job->cfg;
}

void *vm_job_data(const struct vm_job *job)
{
	return job->data;
}

static void vm_job_free(struct vm_job *job)
{
	child_process_release(&job->cp);
	free(job->dir);
	free(job);
}

int vm_job_finish(struct vm_job *job, struct vm_result *out)
{
	job->finish(job, out);
	vm_job_free(job);
	return out->status == RUN_OK ? 0 : -1;
}

/* The run's file name in its directory, malloc'd. */
static char *in_dir(const struct vm_job *job, const char *name)
{
	return xstrfmt("%s/%s", job->dir, name);
}

/* Unlinks the run's file name: a stale file must not pass for this run's output. */
static void unlink_in_dir(const struct vm_job *job, const char *name)
{
	char *path = in_dir(job, name);

	unlink(path);
	free(path);
}

/* After qemu (or the runner) has ended: what the run gave, from its files. */
static void finish_run(struct vm_job *job, struct vm_result *out)
{
	const struct vm_config *cfg = &job->cfg;
	struct strbuf console = STRBUF_INIT, results = STRBUF_INIT, qemu_log = STRBUF_INIT;
	char *console_path = in_dir(job, "console.txt");
	char *results_path = in_dir(job, "results.txt");
	char *qemu_log_path = in_dir(job, "qemu.txt");

	remove_scratch(cfg);
	read_tail(&console, console_path, CONSOLE_READ_MAX);
	read_head(&results, results_path, KCP_OUTPUT_MAX);
	read_tail(&qemu_log, qemu_log_path, QEMU_LOG_READ_MAX);
	/* A runner's stderr is its console: its last line explains an exit. */
	vm_classify(out, &job->cp, console.buf, console.len, results.buf, results.len,
		    out->accel == VM_ACCEL_RUNNER ? console.buf : qemu_log.buf);
	extract_output(out, cfg);
	findings_scan(&out->findings, console.buf, console.len);
	out->meter_loaded = vm_meter_loaded(cfg, out->accel);
	if (out->meter_loaded)
		vm_read_meter(out, cfg);
	if (out->status != RUN_OK && !out->console_tail.len)
		vm_add_last_lines(&out->console_tail, console.buf, console.len,
				  VM_CONSOLE_TAIL_LINES);
	strbuf_release(&console);
	strbuf_release(&results);
	strbuf_release(&qemu_log);
	free(console_path);
	free(results_path);
	free(qemu_log_path);
}

int vm_start(struct vm_job **job_out, struct vm_result *out, const struct vm_config *cfg,
	     const char *dir)
{
	struct vm_job *job = NULL;
	char *console_path = NULL, *results_path = NULL, *qemu_log_path = NULL;
	struct stat st;
	int ret = -1;

	*job_out = NULL;
	vm_result_release(out);
	out->workload = cfg->workload ? workload_table[cfg->workload->id].name : "boot";
	out->accel = vm_resolve_accel(cfg);
	if (vm_effective_clock(&out->clock, &out->icount_shift, cfg, out->accel)) {
		out->status = RUN_START_FAILED;
		strbuf_addf(&out->reason, "--clock icount needs TCG, not %s",
			    vm_accel_name(out->accel));
		goto out;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		out->status = RUN_START_FAILED;
		strbuf_addf(&out->reason, "no run directory '%s'", dir);
		error("no run directory '%s'", dir);
		goto out;
	}
	job = vm_job_new(cfg, dir, finish_run, NULL);
	console_path = in_dir(job, "console.txt");
	results_path = in_dir(job, "results.txt");
	qemu_log_path = in_dir(job, "qemu.txt");
	unlink(console_path);
	unlink(results_path);
	unlink(qemu_log_path);
	unlink_in_dir(job, "output.txt");
	if (vm_meter_loaded(&job->cfg, out->accel))
		unlink_in_dir(job, METER_FILE);
	if (make_scratch(&job->cfg, &out->reason)) {
		out->status = RUN_START_FAILED;
		error("%s", out->reason.buf);
		remove_scratch(&job->cfg);
		goto out;
	}
	vm_prepare(&job->cp, &job->cfg, out->accel, dir, console_path, results_path,
		   qemu_log_path);
	job->cp.silent_exec_failure = 1;
	/* Not started (no qemu): vm_job_process() is NULL, finishing classifies it. */
	start_command(&job->cp);
	*job_out = job;
	job = NULL;
	ret = 0;
out:
	if (job)
		vm_job_free(job);
	free(console_path);
	free(results_path);
	free(qemu_log_path);
	return ret;
}

int vm_run(struct vm_result *out, const struct vm_config *cfg, const char *dir)
{
	struct vm_job *job;
	struct child_process *cp;

	if (vm_start(&job, out, cfg, dir))
		return -1;
	cp = vm_job_process(job);
	if (cp)
		finish_command(cp);
	return vm_job_finish(job, out);
}
