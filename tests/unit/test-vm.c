/* test-vm.c: unit tests for qemu's argv, quoting, result classification and the error paths of vm_run(). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/run-command.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "test-lib.h"
#include "util/usage.h"
#include "run/schedule.h"
#include "run/vm.h"
#include "run/workload-spec.h"
#include "util/wrapper.h"

static struct strbuf messages = STRBUF_INIT;

static void capture(const char *kind, const char *msg, void *data UNUSED)
{
	strbuf_addf(&messages, "%s: %s\n", kind, msg);
}

static void joined_argv(struct strbuf *out, const struct vm_config *cfg, enum vm_accel accel)
{
	struct strvec argv = STRVEC_INIT;

	vm_qemu_argv(&argv, cfg, accel, "run/console.txt", "run/results.txt");
	vm_quote_argv(out, argv.v);
	strvec_clear(&argv);
}

static void test_tcg_argv(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct strbuf sb = STRBUF_INIT;

	cfg.kernel = "bzImage";
	cfg.initramfs = "initramfs.gz";
	cfg.layout_seed = 0;
	/* Under TCG the default clock is icount, the RTC from the layout seed. */
	joined_argv(&sb, &cfg, VM_ACCEL_TCG);
	check_str(sb.buf, "qemu-system-x86_64 -accel tcg -cpu qemu64 -m 512 -smp 1 "
		  "-display none -no-reboot -nic none "
		  "-icount shift=0,sleep=off -rtc base=2001-01-01T00:00:00,clock=vm "
		  "-serial file:run/console.txt -serial file:run/results.txt "
		  "-kernel bzImage -initrd initramfs.gz "
		  "-append 'console=ttyS0 quiet panic=-1 " VM_ICOUNT_APPEND " kcp.layout=00000000000000000000 kcp.phase= "
		  "kcp.workload=boot'");
	strbuf_reset(&sb);

	/* --clock host: qemu's own clock, nothing pinned. */
	cfg.clock = VM_CLOCK_HOST;
	joined_argv(&sb, &cfg, VM_ACCEL_TCG);
	check_str(sb.buf, "qemu-system-x86_64 -accel tcg -cpu qemu64 -m 512 -smp 1 "
		  "-display none -no-reboot -nic none "
		  "-serial file:run/console.txt -serial file:run/results.txt "
		  "-kernel bzImage -initrd initramfs.gz "
		  "-append 'console=ttyS0 quiet panic=-1 kcp.workload=boot'");
	strbuf_release(&sb);
}

/*
 * arm64: qemu's virt machine, console on its PL011, results on a virtio
 * console, the disk on virtio-mmio; under icount -seed pins the device
 * tree's random seeds to the layout seed.
 */
static void test_arm64_argv(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct strbuf sb = STRBUF_INIT;

	cfg.arch = "arm64";
	cfg.kernel = "Image";
	cfg.initramfs = "initramfs.gz";
	cfg.layout_seed = 86400;
	joined_argv(&sb, &cfg, VM_ACCEL_TCG);
	check_str(sb.buf, "qemu-system-aarch64 -M virt -accel tcg -cpu " VM_DEFAULT_TCG_CPU_ARM64
		  " -m 512 -smp 1 -display none -no-reboot -nic none "
		  "-icount shift=0,sleep=off -rtc base=2001-01-02T00:00:00,clock=vm -seed 86400 "
		  "-serial file:run/console.txt -device virtio-serial-device "
		  "-chardev file,id=kcp-results,path=run/results.txt "
		  "-device virtconsole,chardev=kcp-results "
		  "-kernel Image -initrd initramfs.gz "
		  "-append 'console=ttyAMA0 quiet panic=-1 " VM_ICOUNT_APPEND_ARM64
		  " kcp.layout=00000000000000086400 kcp.phase=xxxxxxxx kcp.workload=boot'");
	strbuf_reset(&sb);

	/* the host clock: no -icount, -rtc or -seed; a disk on virtio-mmio */
	cfg.clock = VM_CLOCK_HOST;
	cfg.disk = "/d/a,b.img";
	joined_argv(&sb, &cfg, VM_ACCEL_TCG);
	check_str(sb.buf, "qemu-system-aarch64 -M virt -accel tcg -cpu " VM_DEFAULT_TCG_CPU_ARM64
		  " -m 512 -smp 1 -display none -no-reboot -nic none "
		  "-serial file:run/console.txt -device virtio-serial-device "
		  "-chardev file,id=kcp-results,path=run/results.txt "
		  "-device virtconsole,chardev=kcp-results "
		  "-drive file=/d/a,,b.img,if=none,id=kcp-disk,format=raw,readonly=on,cache=none "
		  "-device virtio-blk-device,drive=kcp-disk "
		  "-kernel Image -initrd initramfs.gz "
		  "-append 'console=ttyAMA0 quiet panic=-1 kcp.workload=boot'");
	strbuf_reset(&sb);

	/* --cpu and --qemu win */
	cfg.cpu = "max";
	cfg.qemu = "/opt/bin/qemu-system-aarch64";
	joined_argv(&sb, &cfg, VM_ACCEL_TCG);
	check(starts_with(sb.buf, "/opt/bin/qemu-system-aarch64 -M virt -accel tcg -cpu max "));
	strbuf_release(&sb);

	check(vm_arch_known("arm64"));
	check(vm_arch_known(NULL));
	check(!vm_arch_known("riscv"));
	check_str(vm_default_qemu("arm64"), "qemu-system-aarch64");
	check_str(vm_default_qemu(NULL), VM_DEFAULT_QEMU);
	check_str(vm_default_cpu("arm64", VM_ACCEL_TCG), VM_DEFAULT_TCG_CPU_ARM64);
	check_str(vm_default_cpu("x86_64", VM_ACCEL_TCG), VM_DEFAULT_TCG_CPU);
	check_str(vm_default_cpu("arm64", VM_ACCEL_KVM), VM_DEFAULT_KVM_CPU);
}

/* KVM runs only the host's arch: auto is TCG for another, without a probe boot. */
static void test_auto_accel_of_another_arch_is_tcg(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;

	cfg.arch = "arm64";
	cfg.kernel = "/no/such/Image";
	cfg.initramfs = "/no/such/initramfs.gz";
	vm_forget_probe();
	test_capture_start();
	check_int(vm_resolve_accel(&cfg), ==, VM_ACCEL_TCG);
	test_capture_stop();
	/* no "kvm probe: ..." note: nothing was probed */
	check(!strstr(test_messages.buf, "kvm probe"));
	vm_forget_probe();
}

static void test_clock_parse_and_effective_clock(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	enum vm_clock clock;
	int shift;

	check_int(vm_clock_parse(&clock, &shift, "icount"), ==, 0);
	check_int(clock, ==, VM_CLOCK_ICOUNT);
	check_int(shift, ==, -1);
	check_int(vm_clock_parse(&clock, &shift, "icount:3"), ==, 0);
	check_int(clock, ==, VM_CLOCK_ICOUNT);
	check_int(shift, ==, 3);
	check_int(vm_clock_parse(&clock, &shift, "host"), ==, 0);
	check_int(clock, ==, VM_CLOCK_HOST);
	check_int(vm_clock_parse(&clock, &shift, "auto"), ==, 0);
	check_int(clock, ==, VM_CLOCK_AUTO);
	test_capture_start();
	check_int(vm_clock_parse(&clock, &shift, "icount:11"), ==, -1);
	check_int(vm_clock_parse(&clock, &shift, "icount:"), ==, -1);
	check_int(vm_clock_parse(&clock, &shift, "icount:-1"), ==, -1);
	check_int(vm_clock_parse(&clock, &shift, "wall"), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "'wall' is not a clock"));

	/* auto: icount under TCG only; the default shift. */
	check_int(vm_effective_clock(&clock, &shift, &cfg, VM_ACCEL_TCG), ==, 0);
	check_int(clock, ==, VM_CLOCK_ICOUNT);
	check_int(shift, ==, VM_DEFAULT_ICOUNT_SHIFT);
	check_int(vm_effective_clock(&clock, &shift, &cfg, VM_ACCEL_KVM), ==, 0);
	check_int(clock, ==, VM_CLOCK_HOST);
	check_int(shift, ==, -1);
	check_int(vm_effective_clock(&clock, &shift, &cfg, VM_ACCEL_RUNNER), ==, 0);
	check_int(clock, ==, VM_CLOCK_HOST);
	/* Asked for icount where there is none: an error, not a silent host clock. */
	cfg.clock = VM_CLOCK_ICOUNT;
	cfg.icount_shift = 4;
	check_int(vm_effective_clock(&clock, &shift, &cfg, VM_ACCEL_TCG), ==, 0);
	check_int(shift, ==, 4);
	test_capture_start();
	check_int(vm_effective_clock(&clock, &shift, &cfg, VM_ACCEL_KVM), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "needs TCG"));
}

static void test_rtc_base_from_the_layout_seed(void)
{
	struct strbuf sb = STRBUF_INIT;

	vm_rtc_base(&sb, 0);
	check_str(sb.buf, "2001-01-01T00:00:00");
	strbuf_reset(&sb);
	vm_rtc_base(&sb, 86400 + 3661);
	check_str(sb.buf, "2001-01-02T01:01:01");
	strbuf_reset(&sb);
	/* Wraps within 30 years, so any seed gives a date qemu takes. */
	vm_rtc_base(&sb, 30ULL * 365 * 86400);
	check_str(sb.buf, "2001-01-01T00:00:00");
	strbuf_reset(&sb);
	vm_rtc_base(&sb, UINT64_MAX);
	check(starts_with(sb.buf, "20") && sb.len == 19);
	strbuf_release(&sb);
}

/*
 * kcp.phase= pads each run's command line by a length drawn from its
 * layout seed: an experiment's rounds sample all 64 lengths, about evenly,
 * and a run repeated with its seed has the same command line.
 */
static void test_phase_padding_from_the_layout_seed(void)
{
	int count[64] = { 0 }, r, least = 1000, most = 0, i;

	for (r = 0; r < 640; r++) {
		uint64_t seed = (uint64_t)schedule_layout_seed(7, "baseline", "boot", r, 0);
		size_t n = vm_phase_padding(seed);

		check_int(n, <, 64);
		check_int(n, ==, vm_phase_padding(seed));
		if (n < 64)
			count[n]++;
	}
	for (i = 0; i < 64; i++) {
		least = count[i] < least ? count[i] : least;
		most = count[i] > most ? count[i] : most;
	}
	check_int(least, >=, 2);
	check_int(most, <=, 25);
	check_int(vm_phase_padding(0), ==, 0);
	check_int(vm_phase_padding(86400), ==, 8);
}

static void test_kvm_argv_with_disk_and_options(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct workload_spec spec = WORKLOAD_SPEC_INIT;
	struct strvec argv = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	check_int(workload_spec_parse(&spec, "dd:count=4"), ==, 0);
	cfg.qemu = "/opt/qemu/bin/qemu-system-x86_64";
	cfg.kernel = "/k/bzImage";
	cfg.initramfs = "/k/i.gz";
	cfg.mem_mb = 1024;
	cfg.smp = 2;
	cfg.disk = "/img/a,b.raw";
	cfg.workload = &spec;
	cfg.extra_append = "loglevel=7";
	vm_qemu_argv(&argv, &cfg, VM_ACCEL_KVM, "c", "r");
	check_str(argv.v[0], "/opt/qemu/bin/qemu-system-x86_64");
	check_str(argv.v[1], "-accel");
	check_str(argv.v[2], "kvm");
	check_str(argv.v[3], "-cpu");
	check_str(argv.v[4], "host");
	check(strvec_find(&argv, "1024") == 6);
	check(strvec_find(&argv, "2") == 8);
	/* A comma in the image path is doubled, as qemu's option syntax wants. */
	check(strvec_find(&argv, "file=/img/a,,b.raw,if=virtio,format=raw,readonly=on,cache=none") > 0);
	check_str(argv.v[argv.nr - 2], "-append");
	vm_kernel_cmdline(&sb, &cfg, VM_ACCEL_KVM);
	check_str(argv.v[argv.nr - 1], sb.buf);
	check(starts_with(sb.buf, "console=ttyS0 quiet panic=-1 kcp.workload=dd "));
	check(strstr(sb.buf, " kcp.count=4") != NULL);
	check(ends_with(sb.buf, " loglevel=7"));
	strvec_clear(&argv);
	strbuf_reset(&sb);

	/* asked for icount, the KVM probe's command line has none, and says nothing */
	cfg.clock = VM_CLOCK_ICOUNT_IDLE;
	test_capture_start();
	vm_qemu_argv(&argv, &cfg, VM_ACCEL_KVM, "c", "r");
	test_capture_stop();
	check(strvec_find(&argv, "-icount") < 0);
	check_str(test_messages.buf, "");
	cfg.clock = VM_CLOCK_AUTO;
	strvec_clear(&argv);

	/* The caller's cpu model wins under either accel. */
	cfg.cpu = "max";
	vm_qemu_argv(&argv, &cfg, VM_ACCEL_TCG, "c", "r");
	check_str(argv.v[2], "tcg");
	check_str(argv.v[4], "max");
	strvec_clear(&argv);
	vm_qemu_argv(&argv, &cfg, VM_ACCEL_KVM, "c", "r");
	check_str(argv.v[4], "max");
	strvec_clear(&argv);
	strbuf_release(&sb);
	workload_spec_release(&spec);
}

static void test_quoting(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *argv[] = { "plain/path-1.0_x", "two words", "it's", "", "$HOME",
			       "a\"b", "k=v,w:x", "*", NULL };

	vm_quote_argv(&sb, argv);
	check_str(sb.buf, "plain/path-1.0_x 'two words' 'it'\\''s' '' '$HOME' "
		  "'a\"b' k=v,w:x '*'");
	strbuf_release(&sb);
}

static void test_names_and_accel_parse(void)
{
	enum vm_accel a = VM_ACCEL_TCG;

	check_int(vm_accel_parse(&a, "auto"), ==, 0);
	check_int(a, ==, VM_ACCEL_AUTO);
	check_int(vm_accel_parse(&a, "kvm"), ==, 0);
	check_int(a, ==, VM_ACCEL_KVM);
	set_message_sink(capture, NULL);
	strbuf_reset(&messages);
	check_int(vm_accel_parse(&a, "hvf"), ==, -1);
	set_message_sink(NULL, NULL);
	check_str(messages.buf, "error: 'hvf' is not an accelerator: use auto, kvm or tcg\n");
	check_int(a, ==, VM_ACCEL_KVM);
	check_str(vm_accel_name(VM_ACCEL_TCG), "tcg");
	check_str(run_status_name(RUN_PANIC), "panic");
	check_str(run_status_name(RUN_NO_DONE), "no-done");
}

static void test_runner_command_and_environment(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct strbuf sb = STRBUF_INIT;

	cfg.kernel = "/k/bzImage";
	cfg.initramfs = "/k/i.gz";
	cfg.config_path = "/k/.config";
	cfg.variant = "PROVE_LOCKING";
	cfg.run_number = 7;
	cfg.runner = "lab-boot --host a";
	check_int(vm_format_command(&sb, &cfg, "/runs/7"), ==, 0);
	check_str(sb.buf, "env KCP_KERNEL=/k/bzImage KCP_INITRAMFS=/k/i.gz "
		  "'KCP_CMDLINE=console=ttyS0 quiet panic=-1 kcp.workload=boot' "
		  "KCP_CONFIG=/k/.config KCP_VARIANT=PROVE_LOCKING KCP_WORKLOAD=boot "
		  "KCP_RUN=7 KCP_DIR=/runs/7 KCP_MEM_MB=512 KCP_SMP=1 KCP_ARCH=x86_64 "
		  "sh -c 'lab-boot --host a'");
	strbuf_reset(&sb);
	/* A plain path is executed directly, without a shell. */
	cfg.runner = "/usr/local/bin/lab-boot";
	check_int(vm_format_command(&sb, &cfg, "d"), ==, 0);
	check(ends_with(sb.buf, " KCP_SMP=1 KCP_ARCH=x86_64 /usr/local/bin/lab-boot"));
	check_int(vm_resolve_accel(&cfg), ==, VM_ACCEL_RUNNER);
	strbuf_release(&sb);
}

/* Classifies canned texts as if qemu had ended as described. */
static void classify(struct vm_result *res, int exit_code, int timed_out,
		     const char *console, const char *results, const char *qemu_log)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	strvec_push(&cp.args, "qemu-system-x86_64");
	cp.exit_code = exit_code;
	cp.timed_out = timed_out;
	cp.timeout = 30;
	cp.seconds = 2.5;
	set_message_sink(capture, NULL);
	vm_classify(res, &cp, console, strlen(console), results, strlen(results), qemu_log);
	set_message_sink(NULL, NULL);
	child_process_release(&cp);
}

static const char ok_results[] =
	"KCP 1 ready boot_s=0.812 workload=boot\n"
	"KCP 1 sample workload=boot iter=0 metric=time unit=s better=lower value=0.812\n"
	"KCP 1 done\n";

static void test_classify_ok(void)
{
	struct vm_result res = VM_RESULT_INIT;

	classify(&res, 0, 0, "[    0.5] reboot: Power down\n", ok_results, "");
	check_int(res.status, ==, RUN_OK);
	check_str(res.reason.buf, "");
	check_int(res.console_tail.len, ==, 0);
	check_double(res.seconds, 2.5, 1e-12);
	check_int(res.proto.ready, ==, 1);
	check_double(res.proto.boot_seconds, 0.812, 1e-12);
	check_int(res.proto.nr_samples, ==, 1);
	check_int(res.proto.done, ==, 1);
	vm_result_release(&res);
}

static void test_classify_panic_even_when_qemu_exits_0(void)
{
	struct vm_result res = VM_RESULT_INIT;

	classify(&res, 0, 0,
		 "Run /init as init process\n"
		 "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000000\r\n"
		 "CPU: 0 PID: 1 Comm: init Not tainted 6.1.0 #1\n",
		 "KCP 1 ready boot_s=0.8\n", "");
	check_int(res.status, ==, RUN_PANIC);
	check_str(res.reason.buf,
		  "kernel panic: Attempted to kill init! exitcode=0x00000000");
	check(strstr(res.console_tail.buf, "Comm: init") != NULL);
	check_int(res.proto.ready, ==, 1);
	vm_result_release(&res);

	/* A panic outranks a timeout and a "done" line. */
	classify(&res, -1, 1, "Kernel panic - not syncing: sysrq triggered crash\n",
		 ok_results, "");
	check_int(res.status, ==, RUN_PANIC);
	check_str(res.reason.buf, "kernel panic: sysrq triggered crash");
	vm_result_release(&res);
}

/* A run stopped for writing too much fails, even with a done line. */
static void test_classify_output_over_cap(void)
{
	struct vm_result res = VM_RESULT_INIT;
	struct child_process cp = CHILD_PROCESS_INIT;

	strvec_push(&cp.args, "runner");
	strvec_push(&cp.watch, "/runs/baseline/boot/r0/results.txt");
	cp.exceeded = cp.watch.v[0];
	cp.signal = SIGTERM;
	vm_classify(&res, &cp, "", 0, ok_results, strlen(ok_results), "");
	check_int(res.status, ==, RUN_MALFORMED);
	check_str(res.reason.buf, "more output than a run may write: 'results.txt' grew "
		  "beyond 64 MiB, so the run was stopped");
	check_int(res.proto.nr_samples, ==, 1);
	vm_result_release(&res);
	child_process_release(&cp);
}

static void test_classify_missing_done(void)
{
	struct vm_result res = VM_RESULT_INIT;

	classify(&res, 0, 0, "", "KCP 1 ready boot_s=0.8\n"
		 "KCP 1 sample workload=boot iter=0 metric=time unit=s better=lower value=1\n",
		 "");
	check_int(res.status, ==, RUN_NO_DONE);
	check_str(res.reason.buf, "no 'done' line (last sample iter=0)");
	vm_result_release(&res);

	classify(&res, 0, 0, "noise\n", "not a protocol line\n", "");
	check_int(res.status, ==, RUN_NO_DONE);
	check_str(res.reason.buf, "no output");
	check_str(res.console_tail.buf, "noise\n");
	vm_result_release(&res);
}

static void test_classify_guest_error_and_malformed(void)
{
	struct vm_result res = VM_RESULT_INIT;

	classify(&res, 0, 0, "", "KCP 1 ready boot_s=0.8\n"
		 "KCP 1 error msg=\"cannot open '/dev/vda': No such device\"\n", "");
	check_int(res.status, ==, RUN_GUEST_ERROR);
	check_str(res.reason.buf, "guest error: cannot open '/dev/vda': No such device");
	vm_result_release(&res);

	/* A guest error outranks the timeout of a guest that then hung. */
	classify(&res, -1, 1, "", "KCP 1 error msg=boom\n", "");
	check_int(res.status, ==, RUN_GUEST_ERROR);
	vm_result_release(&res);

	classify(&res, 0, 0, "", "KCP 1 ready boot_s=fast\nKCP 1 done\n", "");
	check_int(res.status, ==, RUN_MALFORMED);
	check(starts_with(res.reason.buf, "malformed output: "));
	vm_result_release(&res);
}

static void test_classify_timeout_and_exit(void)
{
	struct vm_result res = VM_RESULT_INIT;

	classify(&res, -1, 1, "", "KCP 1 ready boot_s=0.812\n", "");
	check_int(res.status, ==, RUN_TIMEOUT);
	check_str(res.reason.buf, "timed out after 30 s (the guest was ready after 0.81 s, no samples)");
	vm_result_release(&res);

	classify(&res, 0, 1, "", "", "");
	check_str(res.reason.buf, "timed out after 30 s (no output from the guest)");
	vm_result_release(&res);

	classify(&res, 0, 1, "", ok_results, "");
	check_int(res.status, ==, RUN_TIMEOUT);
	check_str(res.reason.buf,
		  "timed out after 30 s (the guest said done but never powered off)");
	vm_result_release(&res);

	classify(&res, 1, 0, "", "",
		 "qemu-system-x86_64: -kernel x: could not open kernel file\n\n");
	check_int(res.status, ==, RUN_EXIT_FAILED);
	check_int(res.exit_code, ==, 1);
	check_str(res.reason.buf, "qemu exited with status 1: "
		  "qemu-system-x86_64: -kernel x: could not open kernel file");
	vm_result_release(&res);
}

static void test_console_tail_keeps_the_last_lines(void)
{
	struct vm_result res = VM_RESULT_INIT;
	struct strbuf console = STRBUF_INIT, expect = STRBUF_INIT;
	int i;

	for (i = 1; i <= 100; i++) {
		strbuf_addf(&console, "line %d\n", i);
		if (i > 100 - VM_CONSOLE_TAIL_LINES)
			strbuf_addf(&expect, "line %d\n", i);
	}
	classify(&res, 0, 0, console.buf, "", "");
	check_str(res.console_tail.buf, expect.buf);
	vm_result_release(&res);

	/* A last line without a newline counts as a line. */
	strbuf_setlen(&console, console.len - 1);
	strbuf_setlen(&expect, expect.len - 1);
	classify(&res, 0, 0, console.buf, "", "");
	check_str(res.console_tail.buf, expect.buf);
	vm_result_release(&res);
	strbuf_release(&console);
	strbuf_release(&expect);
}

/* Writes an executable shell script into the test's scratch directory. */
static char *write_script(const char *name, const char *body)
{
	char *path = xstrfmt("%s/%s", test_tmpdir(), name);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "#!/bin/sh\n%s", body);
	if (strbuf_write_file(&sb, path) || chmod(path, 0755))
		check(!"cannot write script");
	strbuf_release(&sb);
	return path;
}

static void test_missing_qemu_is_a_clear_error(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct vm_result res = VM_RESULT_INIT;

	cfg.qemu = "/nonexistent/qemu-system-x86_64";
	cfg.kernel = "k";
	cfg.initramfs = "i";
	cfg.accel = VM_ACCEL_TCG;
	check_int(vm_run(&res, &cfg, test_tmpdir()), ==, -1);
	check_int(res.status, ==, RUN_START_FAILED);
	check_str(res.reason.buf, "cannot start qemu '/nonexistent/qemu-system-x86_64': "
		  "No such file or directory");
	check_int(res.accel, ==, VM_ACCEL_TCG);
	vm_result_release(&res);
}

static void test_hanging_qemu_times_out(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct vm_result res = VM_RESULT_INIT;
	char *qemu = write_script("qemu-hang", "trap '' TERM\nsleep 60\n");
	double start = now_seconds();

	cfg.qemu = qemu;
	cfg.kernel = "k";
	cfg.initramfs = "i";
	cfg.accel = VM_ACCEL_TCG;
	cfg.timeout = 0.5;
	check_int(vm_run(&res, &cfg, test_tmpdir()), ==, -1);
	check_int(res.status, ==, RUN_TIMEOUT);
	check_str(res.reason.buf, "timed out after 0.5 s (no output from the guest)");
	/* It ignores SIGTERM: SIGKILL follows after the grace period. */
	check_double(res.seconds, 0.5 + CHILD_PROCESS_DEFAULT_GRACE, 0.2);
	check(now_seconds() - start < 0.5 + CHILD_PROCESS_DEFAULT_GRACE + 1);
	vm_result_release(&res);
	free(qemu);
}

static void test_failing_qemu_and_stale_files(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct vm_result res = VM_RESULT_INIT;
	char *qemu = write_script("qemu-fail", "echo 'qemu: no kvm here' >&2\nexit 1\n");
	char *stale = xstrfmt("%s/results.txt", test_tmpdir());
	struct strbuf sb = STRBUF_INIT;

	/* An earlier run's results must not pass for this one's. */
	strbuf_addstr(&sb, ok_results);
	check_int(strbuf_write_file(&sb, stale), ==, 0);
	cfg.qemu = qemu;
	cfg.kernel = "k";
	cfg.initramfs = "i";
	cfg.accel = VM_ACCEL_TCG;
	check_int(vm_run(&res, &cfg, test_tmpdir()), ==, -1);
	check_int(res.status, ==, RUN_EXIT_FAILED);
	check_str(res.reason.buf, "qemu exited with status 1: qemu: no kvm here");
	check_int(res.proto.done, ==, 0);
	check(access(stale, F_OK) != 0);
	vm_result_release(&res);
	strbuf_release(&sb);
	free(qemu);
	free(stale);
}

/* A link planted where a scratch image goes truncates nothing outside (M5 of issue 25). */
static void test_scratch_image_is_never_a_link(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct vm_result res = VM_RESULT_INIT;
	struct workload_spec spec = WORKLOAD_SPEC_INIT;
	char *qemu = write_script("qemu-scratch", "exit 1\n");
	char *dir = xstrfmt("%s/scratch-run", test_tmpdir());
	char *victim = xstrfmt("%s/victim", test_tmpdir());
	char *image = xstrfmt("%s/scratch-vda.img", dir);
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	check_int(mkdir(dir, 0755), ==, 0);
	strbuf_addstr(&sb, "precious\n");
	check_int(strbuf_write_file(&sb, victim), ==, 0);
	check_int(symlink(victim, image), ==, 0);
	check_int(workload_spec_parse(&spec, "cmd:true"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "64M"), ==, 0);
	cfg.qemu = qemu;
	cfg.kernel = "k";
	cfg.initramfs = "i";
	cfg.accel = VM_ACCEL_TCG;
	cfg.workload = &spec;
	test_capture_start();
	vm_run(&res, &cfg, dir);
	test_capture_stop();
	check_int(stat(victim, &st), ==, 0);
	check_int(st.st_size, ==, 9);
	check_int(lstat(image, &st), ==, -1);	/* made as a file of its own, then removed */
	vm_result_release(&res);
	workload_spec_release(&spec);
	strbuf_release(&sb);
	free(qemu);
	free(dir);
	free(victim);
	free(image);
}

/*
 * A fake qemu that finds its first "-serial file:PATH" and writes the
 * console there (or not), for the KVM probe's decisions.
 */
static const char fake_console_qemu[] =
	"while [ $# -gt 0 ]; do\n"
	"\tcase \"$1\" in -serial) shift; echo 'Linux version 6.1' >\"${1#file:}\"; break;; esac\n"
	"\tshift\n"
	"done\n";

static void test_kvm_probe_decisions(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	char *talks = write_script("qemu-talks", fake_console_qemu);
	char *fails = write_script("qemu-mute", "exit 1\n");
	int fd = open("/dev/kvm", O_RDWR);

	cfg.kernel = "k";
	cfg.initramfs = "i";
	cfg.accel = VM_ACCEL_KVM;
	check_int(vm_resolve_accel(&cfg), ==, VM_ACCEL_KVM);
	cfg.accel = VM_ACCEL_TCG;
	check_int(vm_resolve_accel(&cfg), ==, VM_ACCEL_TCG);
	if (fd < 0) {
		printf("# no usable /dev/kvm: probe tests skipped\n");
		goto out;
	}
	close(fd);

	set_message_sink(capture, NULL);
	strbuf_reset(&messages);
	cfg.accel = VM_ACCEL_AUTO;
	cfg.qemu = talks;
	vm_forget_probe();
	check_int(vm_resolve_accel(&cfg), ==, VM_ACCEL_KVM);
	check(starts_with(messages.buf, ": kvm probe: the guest booted in "));
	/* The answer is cached: a mute qemu does not change it. */
	cfg.qemu = fails;
	check_int(vm_resolve_accel(&cfg), ==, VM_ACCEL_KVM);
	vm_forget_probe();
	strbuf_reset(&messages);
	check_int(vm_resolve_accel(&cfg), ==, VM_ACCEL_TCG);
	check_str(messages.buf, ": kvm probe: qemu exited with status 1 without output; using tcg\n");
	set_message_sink(NULL, NULL);
	vm_forget_probe();
out:
	free(talks);
	free(fails);
}

static void test_cmd_machine(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct workload_spec spec = WORKLOAD_SPEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	enum vm_clock clock;
	int shift;

	check_int(workload_spec_parse(&spec, "cmd:dd if=/dev/kcp/vda of=/dev/null"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "64M:lvm,crypt"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "1G"), ==, 0);
	cfg.kernel = "bzImage";
	cfg.initramfs = "initramfs.gz";
	cfg.workload = &spec;
	cfg.run_dir = "run";
	joined_argv(&sb, &cfg, VM_ACCEL_TCG);
	/* idle time is host time for a workload that waits for I/O */
	check(strstr(sb.buf, " -icount shift=0,sleep=on ") != NULL);
	/* ttyS2 for the program's output, the host's root over 9p, the disks in order */
	check(strstr(sb.buf, "-serial file:run/results.txt -serial file:run/output.txt -fsdev "
		     "local,id=kcphost,path=/,security_model=none,readonly=on,multidevs=remap "
		     "-device virtio-9p-pci,fsdev=kcphost,mount_tag=kcphost "
		     "-drive file=run/scratch-vda.img,if=virtio,format=raw,cache=unsafe "
		     "-drive file=run/scratch-vdb.img,if=virtio,format=raw,cache=unsafe -kernel") != NULL);
	check(strstr(sb.buf, "kcp.run=dd%20if%3D/dev/kcp/vda%20of%3D/dev/null "
		     "kcp.scratch=64M:lvm,crypt%201G'") != NULL);
	check_int(vm_effective_clock(&clock, &shift, &cfg, VM_ACCEL_TCG), ==, 0);
	check_int(clock, ==, VM_CLOCK_ICOUNT_IDLE);
	strbuf_reset(&sb);

	/* a disk in the guest's memory has no image: the next disk keeps its position's name */
	workload_spec_release(&spec);
	check_int(workload_spec_parse(&spec, "cmd:dd if=/dev/kcp/vda of=/dev/null"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "64M:ram,lvm,crypt"), ==, 0);
	check_int(workload_spec_add_scratch(&spec, "1G"), ==, 0);
	joined_argv(&sb, &cfg, VM_ACCEL_TCG);
	check(strstr(sb.buf, "mount_tag=kcphost "
		     "-drive file=run/scratch-vdb.img,if=virtio,format=raw,cache=unsafe -kernel") != NULL);
	check(strstr(sb.buf, "scratch-vda") == NULL);
	check(strstr(sb.buf, "kcp.scratch=64M:ram,lvm,crypt%201G brd.rd_nr=1 brd.rd_size=65536'") != NULL);
	strbuf_reset(&sb);

	/* asked for plain icount, it gets it (and its waits jump to the next timer) */
	cfg.clock = VM_CLOCK_ICOUNT;
	joined_argv(&sb, &cfg, VM_ACCEL_TCG);
	check(strstr(sb.buf, " -icount shift=0,sleep=off ") != NULL);
	strbuf_reset(&sb);
	check_int(vm_clock_parse(&clock, &shift, "icount-idle:2"), ==, 0);
	check_int(clock, ==, VM_CLOCK_ICOUNT_IDLE);
	check_int(shift, ==, 2);
	check_int(vm_clock_parse(&clock, &shift, "icount-idle"), ==, 0);
	check_int(shift, ==, -1);
	test_capture_start();
	check_int(vm_clock_parse(&clock, &shift, "icount-idlex"), ==, -1);
	test_capture_stop();
	strbuf_release(&sb);
	workload_spec_release(&spec);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_tcg_argv);
	TEST(test_arm64_argv);
	TEST(test_auto_accel_of_another_arch_is_tcg);
	TEST(test_clock_parse_and_effective_clock);
	TEST(test_rtc_base_from_the_layout_seed);
	TEST(test_phase_padding_from_the_layout_seed);
	TEST(test_kvm_argv_with_disk_and_options);
	TEST(test_quoting);
	TEST(test_names_and_accel_parse);
	TEST(test_runner_command_and_environment);
	TEST(test_classify_ok);
	TEST(test_classify_panic_even_when_qemu_exits_0);
	TEST(test_classify_output_over_cap);
	TEST(test_classify_missing_done);
	TEST(test_classify_guest_error_and_malformed);
	TEST(test_classify_timeout_and_exit);
	TEST(test_console_tail_keeps_the_last_lines);
	TEST(test_missing_qemu_is_a_clear_error);
	TEST(test_hanging_qemu_times_out);
	TEST(test_failing_qemu_and_stale_files);
	TEST(test_scratch_image_is_never_a_link);
	TEST(test_kvm_probe_decisions);
	TEST(test_cmd_machine);
	strbuf_release(&messages);
	return test_done();
}
