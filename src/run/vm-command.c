/* vm-command.c: the command one run executes: qemu's, built for the kernel's arch and the run's clock, or a --runner's. */
/*
 * The one place that builds a guest's qemu command line (arch, clock,
 * ports, disks, 9p), so every way of booting a guest (run, vm,
 * libguestfs's qemu wrapper) gets the same clock.
 */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild/kbuild.h"
#include "run/meter.h"
#include "run/vm-parts.h"
#include "run/vm.h"
#include "run/workload-spec.h"
#include "run/workload-table.h"
#include "util/run-command.h"
#include "util/usage.h"
#include "util/wrapper.h"

/*
 * The machine each arch boots on: one argv builder (vm_build_argv()), and
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

int vm_runs_command(const struct vm_config *cfg)
{
	return cfg->workload && (workload_table[cfg->workload->id].flags & WL_COMMAND);
}

char *vm_run_file(const struct vm_config *cfg, const char *name)
{
	return xstrfmt("%s/%s", cfg->run_dir ? cfg->run_dir : ".", name);
}

char *vm_scratch_image(const struct vm_config *cfg, size_t i)
{
	char name[32];

	if (workload_scratch_in_ram(&cfg->workload->scratch[i]))
		return NULL;
	snprintf(name, sizeof(name), "scratch-vd%c.img", (int)('a' + i));
	return vm_run_file(cfg, name);
}

size_t vm_nr_scratch(const struct vm_config *cfg)
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
	char *out = cfg->meter_out ? xstrdup(cfg->meter_out) : vm_run_file(cfg, METER_FILE);
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

void vm_build_argv(struct strvec *argv, const struct vm_config *cfg,
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
	if (vm_runs_command(cfg)) {
		char *output = vm_run_file(cfg, "output.txt");

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
	for (size_t i = 0; i < vm_nr_scratch(cfg); i++) {
		char *image = vm_scratch_image(cfg, i);

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
	vm_build_argv(argv, cfg, accel, console_path, results_path, 1);
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
	if (vm_runs_command(cfg)) {
		char *output = vm_run_file(cfg, "output.txt");

		/* where kcp-guest --host writes the program's output */
		strvec_pushf(env, "KCP_OUTPUT=%s", output);
		free(output);
	}
	strvec_pushf(env, "KCP_MEM_MB=%d", cfg_mem(cfg));
	strvec_pushf(env, "KCP_SMP=%d", cfg_smp(cfg));
	strvec_pushf(env, "KCP_ARCH=%s", cfg_arch(cfg)->name);
	strbuf_release(&sb);
}

void vm_prepare(struct child_process *cp, const struct vm_config *cfg,
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
		vm_build_argv(&cp->args, cfg, accel, console, results, 1);
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
	vm_prepare(&cp, cfg, accel, dir, console, results, qemu_log);
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
