/* cmd-vm.c: `kconfperf vm`, boot one kernel once and print the run's result (a developer command). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd-options.h"
#include "cmd/commands.h"
#include "util/escape.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "kbuild/kbuild.h"
#include "plan/arch.h"
#include "run/initramfs.h"
#include "run/meter.h"
#include "run/vm.h"
#include "run/workload-spec.h"
#include "util/wrapper.h"

static const char *const vm_usage[] = {
	"kconfperf vm --kernel BZIMAGE --initramfs INITRAMFS.gz [--arch x86_64|arm64] [options]",
	"",
	"Boot a kernel once under qemu (or --runner), run one guest workload and",
	"print the result: status, accel, host seconds, boot time, samples, the",
	"kernel's own reports on its console (finding: lockdep, WARN, KASAN ...),",
	"and on failure the reason and the end of the console.  The per-run files",
	"(console.txt, results.txt, qemu.txt) go to --dir.  Exit status 0 only",
	"for an ok run.  --arch arm64 boots an arm64 Image under qemu-system-aarch64",
	"-M virt (the initramfs must hold kcp-guest-arm64).  Under icount the",
	"instruction meter counts the run (docs/meter.md): its counts go to",
	"meter.txt, the kernel's functions from --map or the build cache's System.map.",
	NULL
};

/* --clock into the struct vm_config opt->value points at (run's is parse_clock_option()). */
static int parse_clock(const struct option *opt, const char *arg)
{
	struct vm_config *cfg = opt->value;

	return vm_clock_parse(&cfg->clock, &cfg->icount_shift, arg);
}

/* --layout-seed into the uint64_t opt->value points at. */
static int parse_layout_seed(const struct option *opt, const char *arg)
{
	uint64_t *seed = opt->value;
	char *end;

	errno = 0;
	*seed = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-')
		return error("'%s' is not a layout seed (a decimal number)", arg);
	return 0;
}

/* Everything but the numbers is the guest's, so none of it reaches the terminal raw. */
static void print_result(const struct vm_result *res)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addf(&sb, "status: %s\n", run_status_name(res->status));
	strbuf_addf(&sb, "accel: %s\n", vm_accel_name(res->accel));
	if (vm_clock_is_icount(res->clock))
		strbuf_addf(&sb, "clock: %s (shift %d, 1 instruction = %d ns%s)\n",
			    vm_clock_name(res->clock), res->icount_shift, 1 << res->icount_shift,
			    res->clock == VM_CLOCK_ICOUNT_IDLE ? "; idle time is host time" : "");
	else
		strbuf_addf(&sb, "clock: %s\n", vm_clock_name(res->clock));
	if (res->proto.clocksource) {
		strbuf_addstr(&sb, "clocksource: ");
		strbuf_add_text(&sb, res->proto.clocksource);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addf(&sb, "seconds: %.3f\n", res->seconds);
	if (res->proto.ready)
		strbuf_addf(&sb, "boot_s: %.3f\n", res->proto.boot_seconds);
	for (i = 0; i < res->proto.nr_samples; i++) {
		const struct protocol_sample *s = &res->proto.samples[i];

		strbuf_addstr(&sb, "sample: ");
		strbuf_add_text(&sb, s->workload);
		strbuf_addch(&sb, ' ');
		strbuf_add_text(&sb, s->metric);
		strbuf_addf(&sb, " %u %.9g ", s->iteration, s->value);
		strbuf_add_text(&sb, s->unit);
		strbuf_addch(&sb, '\n');
	}
	if (res->meter)
		strbuf_addf(&sb, "meter: %" PRIu64 " instructions: %" PRIu64 " before the kernel, %"
			    PRIu64 " kernel (%" PRIu64 " idle), %" PRIu64 " kernel outside the map, %"
			    PRIu64 " user\n", res->meter->total.total, res->meter->total.before_kernel,
			    res->meter->total.kernel, res->meter->total.idle,
			    res->meter->total.kernel_other, res->meter->total.user);
	else if (res->meter_loaded)
		strbuf_addstr(&sb, "meter: no counts\n");
	for (i = 0; i < res->findings.nr; i++) {
		const struct finding *f = &res->findings.v[i];

		strbuf_addf(&sb, "finding: %s x%d: ", finding_kind_name(f->kind), f->count);
		strbuf_add_text(&sb, f->line);
		strbuf_addch(&sb, '\n');
	}
	if (res->reason.len) {
		strbuf_addstr(&sb, "reason: ");
		strbuf_add_text(&sb, res->reason.buf);
		strbuf_addch(&sb, '\n');
	}
	if (res->console_tail.len) {
		strbuf_addstr(&sb, "console:\n");
		strbuf_add_text_lines(&sb, res->console_tail.buf);
		if (sb.buf[sb.len - 1] != '\n')
			strbuf_addch(&sb, '\n');
	}
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

int cmd_vm(int argc, const char **argv)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct vm_result res = VM_RESULT_INIT;
	struct workload_spec spec = WORKLOAD_SPEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct strvec scratch = STRVEC_INIT, extract = STRVEC_INIT;
	const char *workload = "boot", *dir = ".", *map = NULL, *guest = NULL;
	struct strbuf meter = STRBUF_INIT, guest_path = STRBUF_INIT;
	char *cached_map = NULL;
	size_t i;
	int print_command = 0, no_meter = 0, ret = 1;
	const struct option opts[] = {
		OPT_STRING(0, "kernel", &cfg.kernel, "BZIMAGE", "the kernel to boot"),
		OPT_STRING(0, "initramfs", &cfg.initramfs, "FILE", "the initramfs (kconfperf initramfs)"),
		OPT_STRING(0, "arch", &cfg.arch, "ARCH", "the kernel's arch: x86_64 or arm64 (default x86_64)"),
		OPT_STRING('w', "workload", &workload, "NAME[:k=v,...]|cmd:COMMAND",
			   "the guest workload (default boot)"),
		OPT_STRING_LIST(0, "scratch", &scratch, "SIZE[:LAYER,...]",
				"a scratch disk: ram, lvm, crypt, ext4 (repeatable; see 'kconfperf help sweep')"),
		OPT_STRING_LIST(0, "extract", &extract, "NAME,UNIT,higher|lower,SOURCE",
				"a number of the cmd: program's output, re:, csv: or json: (repeatable)"),
		OPT_CALLBACK(0, "accel", &cfg.accel, "auto|kvm|tcg", "accelerator (default auto)",
			     parse_accel_option),
		OPT_STRING(0, "cpu", &cfg.cpu, "MODEL", "qemu -cpu under tcg (default " VM_DEFAULT_TCG_CPU
			   ", arm64 " VM_DEFAULT_TCG_CPU_ARM64 ")"),
		OPT_CALLBACK(0, "clock", &cfg, "icount[:SHIFT]|icount-idle|host",
			     "guest time counts instructions (default under tcg; icount-idle for cmd: and"
			     " scratch disks) or is host time",
			     parse_clock),
		OPT_CALLBACK(0, "layout-seed", &cfg.layout_seed, "N",
			     "under icount, the seed of the guest's RTC and so of its layout (default 0)",
			     parse_layout_seed),
		OPT_CALLBACK(0, "smp", &cfg.smp, "N", "guest CPUs (default 1)", parse_smp_option),
		OPT_CALLBACK(0, "mem", &cfg.mem_mb, "MB", "guest memory, at least 64 (default 512)",
			     parse_mem_option),
		OPT_STRING(0, "disk", &cfg.disk, "IMAGE",
			   "raw image attached read-only (/dev/vda, after the scratch disks)"),
		OPT_STRING(0, "append", &cfg.extra_append, "PARAMS", "more kernel parameters"),
		OPT_CALLBACK(0, "timeout", &cfg.timeout, "SEC",
			     "kill the run after SEC seconds, at most a week (default 120)",
			     parse_timeout_option),
		OPT_STRING(0, "qemu", &cfg.qemu, "PROGRAM", "qemu binary (default: the arch's, "
			   VM_DEFAULT_QEMU ")"),
		OPT_STRING(0, "runner", &cfg.runner, "CMD", "run CMD instead of qemu"),
		OPT_STRING(0, "dir", &dir, "DIR", "directory for the run's files (default .)"),
		OPT_BOOL(0, "no-meter", &no_meter, "do not count instructions (docs/meter.md)"),
		OPT_STRING(0, "map", &map, "SYSTEM.MAP",
			   "the kernel's functions for the meter (default: the build cache's; an extable"
			   " file beside it is read too)"),
		OPT_STRING(0, "guest", &guest, "FILE",
			   "the initramfs's kcp-guest, whose markers the meter watches "
			   "(default: the one beside kconfperf)"),
		OPT_BOOL(0, "print-command", &print_command, "print the command line instead of running it"),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts, vm_usage);
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	if (!cfg.runner && (!cfg.kernel || !cfg.initramfs))
		usage_error("vm needs --kernel and --initramfs (or --runner)");
	if (!vm_arch_known(cfg.arch))
		usage_error("--arch '%s': kconfperf boots x86_64 and arm64", cfg.arch);
	if (workload_spec_parse(&spec, workload))
		goto out;
	for (i = 0; i < scratch.nr; i++)
		if (workload_spec_add_scratch(&spec, scratch.v[i]))
			goto out;
	for (i = 0; i < extract.nr; i++)
		if (workload_spec_add_extract(&spec, extract.v[i]))
			goto out;
	check_ram_disks(&spec, cfg.mem_mb > 0 ? cfg.mem_mb : VM_DEFAULT_MEM_MB);
	cfg.workload = &spec;
	if (!no_meter && !cfg.runner) {
		const struct arch *a = arch_find(cfg.arch ? cfg.arch : VM_DEFAULT_ARCH);

		if (meter_find_plugin(&meter, NULL) ||
		    initramfs_find_guest(&guest_path, guest, a))
			goto out;
		cached_map = map ? NULL : kbuild_system_map(cfg.kernel);
		cfg.meter = meter.buf;
		cfg.meter_map = map ? map : cached_map;
		cfg.meter_guest = guest_path.buf;
	}

	if (print_command) {
		if (vm_format_command(&sb, &cfg, dir))
			goto out;
		printf("%s\n", sb.buf);
		ret = 0;
		goto out;
	}
	if (mkdir_p(dir, 0777))
		goto out;
	ret = vm_run(&res, &cfg, dir) ? 1 : 0;
	print_result(&res);
out:
	vm_result_release(&res);
	workload_spec_release(&spec);
	strbuf_release(&sb);
	strvec_clear(&scratch);
	strvec_clear(&extract);
	strbuf_release(&meter);
	strbuf_release(&guest_path);
	free(cached_map);
	return ret;
}
