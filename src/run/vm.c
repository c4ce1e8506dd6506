/* vm.c: boot one kernel under qemu (or a --runner) for one run, bounded, and classify the result. */
/*
 * The one place that builds a guest's qemu command line (arch, clock,
 * ports, disks, 9p) and the run that uses it, so every way of booting a
 * guest (run, vm, libguestfs's qemu wrapper) gets the same clock; the
 * protocol is protocol.c, workloads workload-spec.c.
 */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kbuild/kbuild.h"
#include "plan/arch.h"
#include "run/extract.h"
#include "run/meter.h"
#include "run/protocol.h"
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

int vm_accel_parse(enum vm_accel *out, const char *name)
{
	if (!strcmp(name, "auto"))
		*out = VM_ACCEL_AUTO;
	else if (!strcmp(name, "kvm"))
		*out = VM_ACCEL_KVM;
	else if (!strcmp(name, "tcg"))
		*out = VM_ACCEL_TCG;
	else
		return error("'%s' is not an accelerator: use auto, kvm or tcg", name);
	return 0;
}

void vm_config_init(struct vm_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->icount_shift = -1;
}

int vm_clock_parse(enum vm_clock *clock, int *shift, const char *spec)
{
	static const struct {
		const char *name;
		enum vm_clock clock;
	} icounts[] = {
		{ "icount", VM_CLOCK_ICOUNT },
		{ "icount-idle", VM_CLOCK_ICOUNT_IDLE },
	};
	const char *rest;
	char *end;
	long n;
	size_t i;

	*shift = -1;
	if (!strcmp(spec, "auto")) {
		*clock = VM_CLOCK_AUTO;
		return 0;
	}
	if (!strcmp(spec, "host")) {
		*clock = VM_CLOCK_HOST;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(icounts); i++) {
		if (!skip_prefix(spec, icounts[i].name, &rest))
			continue;
		if (!*rest) {
			*clock = icounts[i].clock;
			return 0;
		}
		if (*rest++ != ':' || *rest < '0' || *rest > '9')
			continue;
		errno = 0;
		n = strtol(rest, &end, 10);
		if (!errno && !*end && n <= VM_ICOUNT_SHIFT_MAX) {
			*clock = icounts[i].clock;
			*shift = (int)n;
			return 0;
		}
	}
	return error("'%s' is not a clock: use icount, icount-idle, either with :SHIFT (0 to %d), "
		     "host or auto", spec, VM_ICOUNT_SHIFT_MAX);
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

/*
 * The machine each arch boots on: one argv builder (qemu_argv()), and
 * these are the bits that differ.
 */
struct vm_arch {
	const char *name;		/* plan/arch.h's */
	const char *qemu;
	const char *machine;		/* -M, or NULL: qemu's default */
	const char *tcg_cpu;
	const char *console;		/* the kernel console, console=... */
	/*
	 * The results port: a second serial port (the guest's ttyS1), or
	 * a virtio console (hvc0) where the machine has one serial port.
	 */
	int results_on_virtio_console;
	/* The disk on virtio-mmio (-device virtio-blk-device), else -drive if=virtio (PCI). */
	int disk_on_virtio_mmio;
	const char *icount_append;	/* kernel parameters under icount */
	/* qemu -seed from the layout seed: the device tree's random seeds. */
	int seed_from_layout;
};

static const struct vm_arch vm_arches[] = {
	{
		.name = "x86_64", .qemu = VM_DEFAULT_QEMU, .tcg_cpu = VM_DEFAULT_TCG_CPU,
		.console = "ttyS0", .icount_append = VM_ICOUNT_APPEND,
	},
	{
		.name = "arm64", .qemu = "qemu-system-aarch64", .machine = "virt",
		.tcg_cpu = VM_DEFAULT_TCG_CPU_ARM64, .console = "ttyAMA0",
		.results_on_virtio_console = 1, .disk_on_virtio_mmio = 1,
		.icount_append = VM_ICOUNT_APPEND_ARM64, .seed_from_layout = 1,
	},
};

static const struct vm_arch *find_arch(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vm_arches); i++)
		if (!strcmp(vm_arches[i].name, name ? name : VM_DEFAULT_ARCH))
			return &vm_arches[i];
	return NULL;
}

/* cfg's machine; an arch that none is for is a caller's bug (vm_arch_known()). */
static const struct vm_arch *cfg_arch(const struct vm_config *cfg)
{
	const struct vm_arch *a = find_arch(cfg->arch);

	if (!a)
		BUG("no machine for arch '%s'", cfg->arch);
	return a;
}

int vm_arch_known(const char *arch)
{
	return find_arch(arch) != NULL;
}

const char *vm_machine(const char *arch)
{
	const struct vm_arch *a = find_arch(arch);

	return !a ? "unknown" : a->machine ? a->machine : "pc";
}

const char *vm_default_qemu(const char *arch)
{
	const struct vm_arch *a = find_arch(arch);

	return a ? a->qemu : VM_DEFAULT_QEMU;
}

const char *vm_default_cpu(const char *arch, enum vm_accel accel)
{
	const struct vm_arch *a = find_arch(arch);

	if (accel == VM_ACCEL_KVM)
		return VM_DEFAULT_KVM_CPU;
	return a ? a->tcg_cpu : VM_DEFAULT_TCG_CPU;
}

/* Whether KVM could run arch here at all: only the host's own arch. */
static int is_host_arch(const char *arch)
{
	const struct arch *host = arch_host();

	return host && !strcmp(host->name, arch ? arch : VM_DEFAULT_ARCH);
}

static double cfg_timeout(const struct vm_config *cfg)
{
	return cfg->timeout > 0 ? cfg->timeout : VM_DEFAULT_TIMEOUT;
}

static int cfg_mem(const struct vm_config *cfg)
{
	return cfg->mem_mb > 0 ? cfg->mem_mb : VM_DEFAULT_MEM_MB;
}

static int cfg_smp(const struct vm_config *cfg)
{
	return cfg->smp > 0 ? cfg->smp : VM_DEFAULT_SMP;
}

static const char *cfg_cpu(const struct vm_config *cfg, enum vm_accel accel)
{
	return cfg->cpu ? cfg->cpu : vm_default_cpu(cfg_arch(cfg)->name, accel);
}

/*
 * Whether a run of cfg under accel counts instructions, with its clock
 * and shift.  Quiet: the KVM probe builds a command line for a config
 * that asks for icount, and that is no error (the run itself says so).
 */
static int counts_instructions(const struct vm_config *cfg, enum vm_accel accel,
			       enum vm_clock *clock, int *shift)
{
	if (accel != VM_ACCEL_TCG)
		return 0;
	return !vm_effective_clock(clock, shift, cfg, accel) && vm_clock_is_icount(*clock);
}

int vm_meter_loaded(const struct vm_config *cfg, enum vm_accel accel)
{
	enum vm_clock clock;
	int shift;

	return cfg->meter && counts_instructions(cfg, accel, &clock, &shift);
}

size_t vm_phase_padding(uint64_t layout_seed)
{
	/* the top bits of a multiplicative hash: apart from the RTC's and kcp-guest's uses */
	return (size_t)((layout_seed * 0x9e3779b97f4a7c15ULL) >> (64 - 6));
}

/* The clock's kernel parameters, when the run counts instructions: 1 if added. */
static int add_clock_cmdline(struct strbuf *out, const struct vm_config *cfg,
			     enum vm_accel accel)
{
	enum vm_clock clock;
	int shift;

	if (!counts_instructions(cfg, accel, &clock, &shift))
		return 0;
	/* nokaslr: the meter's map must say where the kernel's functions are */
	strbuf_addf(out, "%s%s kcp.layout=%020llu kcp.phase=", cfg_arch(cfg)->icount_append,
		    cfg->meter ? " nokaslr" : "", (unsigned long long)cfg->layout_seed);
	strbuf_addchars(out, 'x', vm_phase_padding(cfg->layout_seed));
	return 1;
}

static void kernel_cmdline(struct strbuf *out, const struct vm_config *cfg,
			   enum vm_accel accel, int quiet_boot)
{
	/* panic=-1 reboots at once on a panic, which -no-reboot turns into qemu's exit. */
	strbuf_addf(out, "console=%s", cfg_arch(cfg)->console);
	if (quiet_boot)
		strbuf_addstr(out, " quiet");
	strbuf_addstr(out, " panic=-1 ");
	if (add_clock_cmdline(out, cfg, accel))
		strbuf_addch(out, ' ');
	if (cfg->workload)
		workload_spec_cmdline(cfg->workload, out);
	else
		strbuf_addstr(out, "kcp.workload=boot");
	if (cfg->extra_append && *cfg->extra_append)
		strbuf_addf(out, " %s", cfg->extra_append);
}

void vm_kernel_cmdline(struct strbuf *out, const struct vm_config *cfg, enum vm_accel accel)
{
	kernel_cmdline(out, cfg, accel, 1);
}

static int runs_command(const struct vm_config *cfg)
{
	return cfg->workload && (workload_table[cfg->workload->id].flags & WL_COMMAND);
}

static char *run_file(const struct vm_config *cfg, const char *name)
{
	return xstrfmt("%s/%s", cfg->run_dir ? cfg->run_dir : ".", name);
}

/*
 * <run_dir>/scratch-vdX.img of scratch disk i (X by its position, as
 * /dev/kcp/vdX in the guest), or NULL for a disk in the guest's memory,
 * which has no image.
 */
static char *scratch_image(const struct vm_config *cfg, size_t i)
{
	char name[32];

	if (workload_scratch_in_ram(&cfg->workload->scratch[i]))
		return NULL;
	snprintf(name, sizeof(name), "scratch-vd%c.img", (int)('a' + i));
	return run_file(cfg, name);
}

static size_t nr_scratch(const struct vm_config *cfg)
{
	return cfg->workload ? cfg->workload->nr_scratch : 0;
}

/* qemu's option values end at a comma; ",," stands for one. */
static void add_option_value(struct strbuf *sb, const char *value)
{
	for (; *value; value++) {
		if (*value == ',')
			strbuf_addch(sb, ',');
		strbuf_addch(sb, *value);
	}
}

/* -plugin file=kcp-meter.so,out=...,map=...,guest=...,extable=...: see run/meter.h. */
static void add_meter(struct strvec *argv, const struct vm_config *cfg)
{
	struct strbuf sb = STRBUF_INIT;
	char *out = cfg->meter_out ? xstrdup(cfg->meter_out) : run_file(cfg, METER_FILE);
	char *extable;

	strbuf_addstr(&sb, "file=");
	add_option_value(&sb, cfg->meter);
	strbuf_addstr(&sb, ",out=");
	add_option_value(&sb, out);
	if (cfg->meter_map) {
		strbuf_addstr(&sb, ",map=");
		add_option_value(&sb, cfg->meter_map);
	}
	if (cfg->meter_guest) {
		strbuf_addstr(&sb, ",guest=");
		add_option_value(&sb, cfg->meter_guest);
	}
	/* the exception table beside the map, if any: fewer rep strings to watch */
	if (cfg->meter_map && (extable = kbuild_extable_beside(cfg->meter_map))) {
		strbuf_addstr(&sb, ",extable=");
		add_option_value(&sb, extable);
		free(extable);
	}
	strvec_push(argv, "-plugin");
	strvec_push(argv, sb.buf);
	strbuf_release(&sb);
	free(out);
}

/*
 * The clock's -icount and -rtc, when the run counts instructions (1 if
 * added), and the meter with them; rtc is the value of an -rtc the
 * command line had already, or NULL, merged into the clock's.
 */
static int add_clock_options(struct strvec *argv, const struct vm_config *cfg,
			     enum vm_accel accel, const char *rtc)
{
	const struct vm_arch *a = cfg_arch(cfg);
	struct strbuf sb = STRBUF_INIT;
	enum vm_clock clock;
	int shift;

	if (!counts_instructions(cfg, accel, &clock, &shift))
		return 0;
	/* sleep=off: idle time is skipped, never waited for; sleep=on: see vm.h */
	strvec_push(argv, "-icount");
	strvec_pushf(argv, "shift=%d,sleep=%s", shift,
		     clock == VM_CLOCK_ICOUNT_IDLE ? "on" : "off");
	if (rtc && *rtc)
		strbuf_addf(&sb, "%s,", rtc);
	strbuf_addstr(&sb, "base=");
	vm_rtc_base(&sb, cfg->layout_seed);
	strbuf_addstr(&sb, ",clock=vm");
	strvec_push(argv, "-rtc");
	strvec_push(argv, sb.buf);
	strbuf_release(&sb);
	if (a->seed_from_layout) {
		strvec_push(argv, "-seed");
		strvec_pushf(argv, "%llu", (unsigned long long)cfg->layout_seed);
	}
	if (cfg->meter)
		add_meter(argv, cfg);
	return 1;
}

static void qemu_argv(struct strvec *argv, const struct vm_config *cfg,
		      enum vm_accel accel, const char *console_path,
		      const char *results_path, int quiet_boot)
{
	const struct vm_arch *a = cfg_arch(cfg);
	struct strbuf sb = STRBUF_INIT;

	strvec_push(argv, cfg->qemu ? cfg->qemu : a->qemu);
	if (a->machine)
		strvec_pushv(argv, (const char *[]){ "-M", a->machine, NULL });
	strvec_push(argv, "-accel");
	strvec_push(argv, accel == VM_ACCEL_KVM ? "kvm" : "tcg");
	strvec_push(argv, "-cpu");
	strvec_push(argv, cfg_cpu(cfg, accel));
	strvec_push(argv, "-m");
	strvec_pushf(argv, "%d", cfg_mem(cfg));
	strvec_push(argv, "-smp");
	strvec_pushf(argv, "%d", cfg_smp(cfg));
	strvec_pushv(argv, (const char *[]){ "-display", "none", "-no-reboot",
					     "-nic", "none", NULL });
	add_clock_options(argv, cfg, accel, NULL);
	/* The first -serial is the console (ttyS0, ttyAMA0). */
	strvec_push(argv, "-serial");
	strvec_pushf(argv, "file:%s", console_path);
	if (a->results_on_virtio_console) {
		/* hvc0: the guest's results port where there is one serial port. */
		strbuf_addstr(&sb, "file,id=kcp-results,path=");
		add_option_value(&sb, results_path);
		strvec_pushv(argv, (const char *[]){ "-device", "virtio-serial-device",
						     "-chardev", sb.buf, "-device",
						     "virtconsole,chardev=kcp-results", NULL });
		strbuf_reset(&sb);
	} else {
		/* The second -serial is ttyS1. */
		strvec_push(argv, "-serial");
		strvec_pushf(argv, "file:%s", results_path);
	}
	if (runs_command(cfg)) {
		char *output = run_file(cfg, "output.txt");

		/* ttyS2: the program's output */
		strvec_push(argv, "-serial");
		strvec_pushf(argv, "file:%s", output);
		free(output);
		/* multidevs=remap: / spans file systems, whose inode numbers could clash */
		strvec_push(argv, "-fsdev");
		strbuf_addstr(&sb, "local,id=kcphost,path=");
		add_option_value(&sb, VM_HOST_ROOT);
		strbuf_addstr(&sb, ",security_model=none,readonly=on,multidevs=remap");
		strvec_push(argv, sb.buf);
		strbuf_reset(&sb);
		strvec_push(argv, "-device");
		strvec_push(argv, "virtio-9p-pci,fsdev=kcphost,mount_tag=" WORKLOAD_HOST_ROOT_TAG);
	}
	for (size_t i = 0; i < nr_scratch(cfg); i++) {
		char *image = scratch_image(cfg, i);

		if (!image)
			continue;
		/* cache=unsafe: see vm.h */
		strbuf_addstr(&sb, "file=");
		add_option_value(&sb, image);
		strbuf_addstr(&sb, ",if=virtio,format=raw,cache=unsafe");
		strvec_push(argv, "-drive");
		strvec_push(argv, sb.buf);
		strbuf_reset(&sb);
		free(image);
	}
	if (cfg->disk) {
		/* cache=none: see vm.h. */
		strbuf_addstr(&sb, "file=");
		add_option_value(&sb, cfg->disk);
		strbuf_addstr(&sb, a->disk_on_virtio_mmio ? ",if=none,id=kcp-disk" : ",if=virtio");
		strbuf_addstr(&sb, ",format=raw,readonly=on,cache=none");
		strvec_push(argv, "-drive");
		strvec_push(argv, sb.buf);
		strbuf_reset(&sb);
		if (a->disk_on_virtio_mmio)
			strvec_pushv(argv, (const char *[]){ "-device",
							     "virtio-blk-device,drive=kcp-disk", NULL });
	}
	strvec_push(argv, "-kernel");
	strvec_push(argv, cfg->kernel);
	strvec_push(argv, "-initrd");
	strvec_push(argv, cfg->initramfs);
	kernel_cmdline(&sb, cfg, accel, quiet_boot);
	strvec_push(argv, "-append");
	strvec_push(argv, sb.buf);
	strbuf_release(&sb);
}

void vm_qemu_argv(struct strvec *argv, const struct vm_config *cfg,
		  enum vm_accel accel, const char *console_path,
		  const char *results_path)
{
	qemu_argv(argv, cfg, accel, console_path, results_path, 1);
}

/* Whether argv[i] is the qemu option name, with a value after it. */
static int is_option(const char *const *argv, size_t i, const char *name)
{
	return !strcmp(argv[i], name) && argv[i + 1];
}

void vm_wrap_qemu_argv(struct strvec *out, const struct vm_config *cfg,
		       enum vm_accel accel, const char *const *argv)
{
	struct strbuf sb = STRBUF_INIT;
	const char *rtc = NULL;
	int boots = 0, have_cpu = 0, have_mem = 0, have_smp = 0;
	size_t i;

	strvec_push(out, cfg->qemu ? cfg->qemu : VM_DEFAULT_QEMU);
	for (i = 1; argv[0] && argv[i]; i++)
		if (is_option(argv, i, "-kernel"))
			boots = 1;
	for (i = 1; argv[0] && argv[i]; i++) {
		if (!boots) {
			strvec_push(out, argv[i]);
		} else if (is_option(argv, i, "-cpu")) {
			strvec_push(out, argv[i++]);
			strvec_push(out, cfg_cpu(cfg, accel));
			have_cpu = 1;
		} else if (is_option(argv, i, "-m")) {
			strvec_push(out, argv[i++]);
			strvec_pushf(out, "%d", cfg_mem(cfg));
			have_mem = 1;
		} else if (is_option(argv, i, "-smp")) {
			strvec_push(out, argv[i++]);
			strvec_pushf(out, "%d", cfg_smp(cfg));
			have_smp = 1;
		} else if (is_option(argv, i, "-rtc")) {
			/* Merged into the clock's own -rtc, or kept as it was. */
			rtc = argv[++i];
		} else if (is_option(argv, i, "-append")) {
			strbuf_reset(&sb);
			strbuf_addstr(&sb, argv[++i]);
			if (sb.len)
				strbuf_addch(&sb, ' ');
			if (!add_clock_cmdline(&sb, cfg, accel))
				strbuf_rtrim(&sb);
			strvec_push(out, "-append");
			strvec_push(out, sb.buf);
		} else {
			strvec_push(out, argv[i]);
		}
	}
	strbuf_release(&sb);
	if (!boots)
		return;
	if (!have_cpu)
		strvec_pushv(out, (const char *[]){ "-cpu", cfg_cpu(cfg, accel), NULL });
	if (!have_mem) {
		strvec_push(out, "-m");
		strvec_pushf(out, "%d", cfg_mem(cfg));
	}
	if (!have_smp) {
		strvec_push(out, "-smp");
		strvec_pushf(out, "%d", cfg_smp(cfg));
	}
	if (!add_clock_options(out, cfg, accel, rtc) && rtc)
		strvec_pushv(out, (const char *[]){ "-rtc", rtc, NULL });
}

static int needs_quoting(const char *s)
{
	if (!*s)
		return 1;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_@%+=:,./-", *s))
			return 1;
	return 0;
}

void vm_quote_argv(struct strbuf *out, const char *const *argv)
{
	const char *p;
	int i;

	for (i = 0; argv[i]; i++) {
		if (i)
			strbuf_addch(out, ' ');
		if (!needs_quoting(argv[i])) {
			strbuf_addstr(out, argv[i]);
			continue;
		}
		strbuf_addch(out, '\'');
		for (p = argv[i]; *p; p++) {
			if (*p == '\'')
				strbuf_addstr(out, "'\\''");
			else
				strbuf_addch(out, *p);
		}
		strbuf_addch(out, '\'');
	}
}

/* A runner with shell syntax runs under sh -c; a plain path is executed. */
static void runner_argv(struct strvec *argv, const char *runner)
{
	if (strcspn(runner, " \t\n|&;<>()$`\\\"'*?[]#~{}") == strlen(runner)) {
		strvec_push(argv, runner);
		return;
	}
	strvec_pushv(argv, (const char *[]){ "sh", "-c", runner, NULL });
}

/* KEY=path, absolute when the path exists, so a runner may chdir or copy. */
static void push_path(struct strvec *env, const char *key, const char *path)
{
	char *abs = path ? realpath(path, NULL) : NULL;

	strvec_pushf(env, "%s=%s", key, abs ? abs : path ? path : "");
	free(abs);
}

static void runner_env(struct strvec *env, const struct vm_config *cfg, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;

	push_path(env, "KCP_KERNEL", cfg->kernel);
	push_path(env, "KCP_INITRAMFS", cfg->initramfs);
	vm_kernel_cmdline(&sb, cfg, VM_ACCEL_RUNNER);
	strvec_pushf(env, "KCP_CMDLINE=%s", sb.buf);
	strbuf_reset(&sb);
	push_path(env, "KCP_CONFIG", cfg->config_path);
	strvec_pushf(env, "KCP_VARIANT=%s", cfg->variant ? cfg->variant : "");
	if (cfg->workload)
		workload_spec_format(cfg->workload, &sb);
	else
		strbuf_addstr(&sb, "boot");
	strvec_pushf(env, "KCP_WORKLOAD=%s", sb.buf);
	strvec_pushf(env, "KCP_RUN=%d", cfg->run_number);
	push_path(env, "KCP_DIR", dir);
	if (runs_command(cfg)) {
		char *output = run_file(cfg, "output.txt");

		/* where kcp-guest --host writes the program's output */
		strvec_pushf(env, "KCP_OUTPUT=%s", output);
		free(output);
	}
	strvec_pushf(env, "KCP_MEM_MB=%d", cfg_mem(cfg));
	strvec_pushf(env, "KCP_SMP=%d", cfg_smp(cfg));
	strvec_pushf(env, "KCP_ARCH=%s", cfg_arch(cfg)->name);
	strbuf_release(&sb);
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
	qemu_argv(&cp.args, cfg, VM_ACCEL_KVM, console, results, 0);
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

/* Sets up cp to run cfg with its files in dir; cp is CHILD_PROCESS_INIT. */
static void prepare(struct child_process *cp, const struct vm_config *cfg,
		    enum vm_accel accel, const char *dir, const char *console,
		    const char *results, const char *qemu_log)
{
	if (accel == VM_ACCEL_RUNNER) {
		runner_argv(&cp->args, cfg->runner);
		runner_env(&cp->env, cfg, dir);
		cp->out.mode = CHILD_IO_FILE;
		cp->out.path = results;
		cp->err.mode = CHILD_IO_FILE;
		cp->err.path = console;
	} else {
		qemu_argv(&cp->args, cfg, accel, console, results, 1);
		cp->out.mode = CHILD_IO_FILE;
		cp->out.path = qemu_log;
		cp->err.mode = CHILD_IO_TO_STDOUT;
	}
	cp->in.mode = CHILD_IO_NULL;
	cp->timeout = cfg_timeout(cfg);
	/* No run fills the disk: each of its files is capped (vm_classify()). */
	strvec_pushv(&cp->watch, (const char *[]){ console, results, qemu_log, NULL });
	cp->watch_max = (off_t)KCP_OUTPUT_MAX;
	/* Nothing a run starts outlives it, nor a kconfperf killed with SIGKILL. */
	cp->contain = 1;
}

int vm_format_command(struct strbuf *out, const struct vm_config *run_cfg, const char *dir)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct vm_config in_dir = *run_cfg, *cfg = &in_dir;
	enum vm_accel accel = vm_resolve_accel(cfg);
	char *console = xstrfmt("%s/console.txt", dir);
	char *results = xstrfmt("%s/results.txt", dir);
	char *qemu_log = xstrfmt("%s/qemu.txt", dir);

	in_dir.run_dir = dir;
	prepare(&cp, cfg, accel, dir, console, results, qemu_log);
	if (accel == VM_ACCEL_RUNNER) {
		struct strvec all = STRVEC_INIT;

		strvec_push(&all, "env");
		strvec_pushv(&all, cp.env.v);
		strvec_pushv(&all, cp.args.v);
		vm_quote_argv(out, all.v);
		strvec_clear(&all);
	} else {
		vm_quote_argv(out, cp.args.v);
	}
	child_process_release(&cp);
	free(console);
	free(results);
	free(qemu_log);
	return 0;
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

/*
 * The last n lines of text (a final line without "\n" counts), without the
 * "\r" the serial console puts before each "\n".
 */
static void add_last_lines(struct strbuf *out, const char *text, size_t len, int n)
{
	size_t start = len;

	if (start && text[start - 1] == '\n')
		start--;
	while (start > 0) {
		if (text[start - 1] == '\n' && --n <= 0)
			break;
		start--;
	}
	for (; start < len; start++)
		if (text[start] != '\r' || (start + 1 < len && text[start + 1] != '\n'))
			strbuf_addch(out, text[start]);
}

/* The last nonblank line of text, without its newline, appended to out. */
static void add_last_line(struct strbuf *out, const char *text)
{
	size_t len = text ? strlen(text) : 0;
	size_t end, start;

	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' ||
		       text[len - 1] == ' '))
		len--;
	end = len;
	start = end;
	while (start && text[start - 1] != '\n')
		start--;
	strbuf_add(out, text + start, end - start);
}

/*
 * Finds "Kernel panic - not syncing" and appends what follows it on its line
 * ("Attempted to kill init! exitcode=0x..."); returns 1 when found.
 */
static int find_panic(struct strbuf *why, const char *console, size_t len)
{
	static const char needle[] = "Kernel panic - not syncing";
	const char *p = memmem(console, len, needle, sizeof(needle) - 1);
	const char *end;

	if (!p)
		return 0;
	p += sizeof(needle) - 1;
	end = memchr(p, '\n', len - (size_t)(p - console));
	if (!end)
		end = console + len;
	while (p < end && (*p == ':' || *p == ' '))
		p++;
	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	strbuf_addstr(why, "kernel panic");
	if (end > p) {
		strbuf_addstr(why, ": ");
		strbuf_add(why, p, (size_t)(end - p));
	}
	return 1;
}

static void describe_progress(struct strbuf *why, const struct protocol_result *r)
{
	if (r->done)
		strbuf_addstr(why, "the guest said done but never powered off");
	else if (r->nr_samples)
		strbuf_addf(why, "the guest was ready and wrote %zu sample%s", r->nr_samples,
			    r->nr_samples == 1 ? "" : "s");
	else if (r->ready)
		strbuf_addf(why, "the guest was ready after %.2f s, no samples", r->boot_seconds);
	else
		strbuf_addstr(why, "no output from the guest");
}

void vm_classify(struct vm_result *out, const struct child_process *cp,
		 const char *console, size_t console_len,
		 const char *results, size_t results_len, const char *qemu_log)
{
	struct strbuf why = STRBUF_INIT;
	const char *who = out->accel == VM_ACCEL_RUNNER ? "runner" : "qemu";

	strbuf_reset(&out->reason);
	strbuf_reset(&out->console_tail);
	protocol_result_release(&out->proto);
	out->proto.workload = out->workload;
	out->seconds = cp->seconds;
	out->exit_code = cp->exit_code;
	if (results_len)
		protocol_parse_buffer(&out->proto, results,
				      results_len < KCP_OUTPUT_MAX ? results_len : KCP_OUTPUT_MAX,
				      "results.txt");

	if (cp->start_errno) {
		out->status = RUN_START_FAILED;
		strbuf_addf(&out->reason, "cannot start %s '%s': %s", who,
			    cp->args.nr ? cp->args.v[0] : "", strerror(cp->start_errno));
	} else if (cp->exceeded || results_len > KCP_OUTPUT_MAX) {
		/* What was cut off may be the samples: the run is lost, not short. */
		const char *file = cp->exceeded ? strrchr(cp->exceeded, '/') : NULL;

		out->status = RUN_MALFORMED;
		strbuf_addf(&out->reason, "more output than a run may write: '%s' grew beyond "
			    "%zu MiB%s", file ? file + 1 : cp->exceeded ? cp->exceeded : "results.txt",
			    KCP_OUTPUT_MAX >> 20, cp->exceeded ? ", so the run was stopped" : "");
	} else if (find_panic(&out->reason, console, console_len)) {
		out->status = RUN_PANIC;
	} else if (out->proto.error) {
		out->status = RUN_GUEST_ERROR;
		strbuf_addf(&out->reason, "guest error: %s", out->proto.error);
	} else if (out->proto.invalid) {
		out->status = RUN_MALFORMED;
		protocol_add_invalid(&out->reason, &out->proto);
	} else if (cp->timed_out) {
		out->status = RUN_TIMEOUT;
		strbuf_addf(&out->reason, "timed out after %g s (", cp->timeout);
		describe_progress(&out->reason, &out->proto);
		strbuf_addch(&out->reason, ')');
	} else if (cp->exit_code) {
		out->status = RUN_EXIT_FAILED;
		if (cp->signal)
			strbuf_addf(&out->reason, "%s killed by signal %d (%s)", who,
				    cp->signal, strsignal(cp->signal));
		else
			strbuf_addf(&out->reason, "%s exited with status %d", who,
				    cp->exit_code);
		add_last_line(&why, qemu_log);
		if (why.len)
			strbuf_addf(&out->reason, ": %s", why.buf);
	} else if (!protocol_result_complete(&out->proto, &why)) {
		out->status = RUN_NO_DONE;
		strbuf_addbuf(&out->reason, &why);
	} else {
		out->status = RUN_OK;
	}
	if (out->status != RUN_OK)
		add_last_lines(&out->console_tail, console, console_len,
			       VM_CONSOLE_TAIL_LINES);
	strbuf_release(&why);
}

/* Sparse images for the scratch disks; 0, or -1 with the reason in why. */
static int make_scratch(const struct vm_config *cfg, struct strbuf *why)
{
	size_t i;

	for (i = 0; i < nr_scratch(cfg); i++) {
		char *image = scratch_image(cfg, i);
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

	for (i = 0; i < nr_scratch(cfg); i++) {
		char *image = scratch_image(cfg, i);

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
	char *path = cfg->meter_out ? xstrdup(cfg->meter_out) : run_file(cfg, METER_FILE);
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

	if (out->status != RUN_OK || !runs_command(cfg) || !spec->nr_extracts)
		return;
	path = run_file(cfg, "output.txt");
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

int vm_job_finish(struct vm_job *job, struct vm_result *out)
{
	job->finish(job, out);
	child_process_release(&job->cp);
	free(job->dir);
	free(job);
	return out->status == RUN_OK ? 0 : -1;
}

/* The run's files in its directory, malloc'd. */
static char *in_dir(const struct vm_job *job, const char *name)
{
	return xstrfmt("%s/%s", job->dir, name);
}

/* Unlinks the run's file name and returns its path, malloc'd. */
static char *in_dir_unlink(const struct vm_job *job, const char *name)
{
	char *path = in_dir(job, name);

	unlink(path);
	return path;
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
		add_last_lines(&out->console_tail, console.buf, console.len,
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
	/* A stale file from an earlier run must not pass for this one's output. */
	unlink(console_path);
	unlink(results_path);
	unlink(qemu_log_path);
	free(in_dir_unlink(job, "output.txt"));
	if (vm_meter_loaded(&job->cfg, out->accel))
		free(in_dir_unlink(job, METER_FILE));
	if (make_scratch(&job->cfg, &out->reason)) {
		out->status = RUN_START_FAILED;
		error("%s", out->reason.buf);
		remove_scratch(&job->cfg);
		goto out;
	}
	prepare(&job->cp, &job->cfg, out->accel, dir, console_path, results_path, qemu_log_path);
	job->cp.silent_exec_failure = 1;
	/* Not started (no qemu): vm_job_process() is NULL, finishing classifies it. */
	start_command(&job->cp);
	*job_out = job;
	job = NULL;
	ret = 0;
out:
	if (job) {
		child_process_release(&job->cp);
		free(job->dir);
		free(job);
	}
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
