/* test-guestfs.c: unit tests for the libguestfs workload: the wrapped qemu argv, the tool's results, the bzImage release. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kconfig/kconfig.h"
#include "plan/harness.h"
#include "run/guestfs.h"
#include "run/protocol.h"
#include "run/vm.h"
#include "run/workload-spec.h"
#include "test-lib.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* A shortened command line of libguestfs 1.48's direct backend, as it ran here. */
static const char *const libguestfs_argv[] = {
	"/x/kcp-qemu", "-global", "virtio-blk-pci.scsi=off", "-no-user-config", "-nodefaults",
	"-display", "none", "-machine", "accel=tcg,graphics=off", "-cpu", "max,la57=off",
	"-m", "1280", "-no-reboot", "-rtc", "driftfix=slew", "-no-hpet",
	"-kernel", "/c/appliance.d/kernel", "-initrd", "/c/appliance.d/initrd",
	"-device", "virtio-scsi-pci,id=scsi", "-serial", "stdio",
	"-append", "panic=1 console=ttyS0 printk.time=1 root=UUID=0f84 guestfs_verbose=1",
	NULL,
};

static void wrapped(struct strbuf *out, const struct vm_config *cfg, enum vm_accel accel,
		    const char *const *argv)
{
	struct strvec v = STRVEC_INIT;

	vm_wrap_qemu_argv(&v, cfg, accel, argv);
	vm_quote_argv(out, v.v);
	strvec_clear(&v);
}

static void test_wrap_applies_the_machine_and_the_clock(void)
{
	struct vm_config cfg = VM_CONFIG_INIT;
	struct strbuf sb = STRBUF_INIT;

	cfg.layout_seed = 0;
	wrapped(&sb, &cfg, VM_ACCEL_TCG, libguestfs_argv);
	check_str(sb.buf, "qemu-system-x86_64 -global virtio-blk-pci.scsi=off -no-user-config "
		  "-nodefaults -display none -machine accel=tcg,graphics=off -cpu qemu64 "
		  "-m 512 -no-reboot -no-hpet -kernel /c/appliance.d/kernel "
		  "-initrd /c/appliance.d/initrd -device virtio-scsi-pci,id=scsi -serial stdio "
		  "-append 'panic=1 console=ttyS0 printk.time=1 root=UUID=0f84 guestfs_verbose=1 "
		  VM_ICOUNT_APPEND " kcp.layout=00000000000000000000 kcp.phase=' -smp 1 -icount shift=0,sleep=off "
		  "-rtc driftfix=slew,base=2001-01-01T00:00:00,clock=vm");
	strbuf_reset(&sb);

	/* The host clock: libguestfs's -rtc and -append stay as they were. */
	cfg.clock = VM_CLOCK_HOST;
	cfg.qemu = "/usr/bin/qemu-system-x86_64";
	cfg.cpu = "max";
	cfg.mem_mb = 768;
	cfg.smp = 2;
	wrapped(&sb, &cfg, VM_ACCEL_TCG, libguestfs_argv);
	check_str(sb.buf, "/usr/bin/qemu-system-x86_64 -global virtio-blk-pci.scsi=off "
		  "-no-user-config -nodefaults -display none -machine accel=tcg,graphics=off "
		  "-cpu max -m 768 -no-reboot -no-hpet -kernel /c/appliance.d/kernel "
		  "-initrd /c/appliance.d/initrd -device virtio-scsi-pci,id=scsi -serial stdio "
		  "-append 'panic=1 console=ttyS0 printk.time=1 root=UUID=0f84 guestfs_verbose=1' "
		  "-smp 2 -rtc driftfix=slew");
	strbuf_reset(&sb);

	/* icount:6 and another layout seed. */
	cfg.clock = VM_CLOCK_ICOUNT;
	cfg.icount_shift = 6;
	cfg.layout_seed = 86400;
	wrapped(&sb, &cfg, VM_ACCEL_TCG, libguestfs_argv);
	check(strstr(sb.buf, " kcp.layout=00000000000000086400 kcp.phase=xxxxxxxx' -smp 2 -icount shift=6,sleep=off "
		     "-rtc driftfix=slew,base=2001-01-02T00:00:00,clock=vm"));
	strbuf_reset(&sb);

	/* The meter in the appliance's qemu: the plugin, and nokaslr for its map. */
	cfg.meter = "/k/kcp-meter.so";
	cfg.meter_map = "/c/builds/x/System.map";
	cfg.meter_out = "/r/run,1/meter.txt";
	wrapped(&sb, &cfg, VM_ACCEL_TCG, libguestfs_argv);
	check(strstr(sb.buf, " guestfs_verbose=1 " VM_ICOUNT_APPEND " nokaslr kcp.layout="));
	check(strstr(sb.buf, " -icount shift=6,sleep=off -rtc driftfix=slew,base=2001-01-02T00:00:00,"
		     "clock=vm -plugin file=/k/kcp-meter.so,out=/r/run,,1/meter.txt,"
		     "map=/c/builds/x/System.map"));
	strbuf_reset(&sb);
	/* never under the host clock */
	cfg.clock = VM_CLOCK_HOST;
	wrapped(&sb, &cfg, VM_ACCEL_TCG, libguestfs_argv);
	check(!strstr(sb.buf, "-plugin"));
	check(!strstr(sb.buf, "nokaslr"));
	strbuf_release(&sb);
}

static void test_wrap_passes_probes_through(void)
{
	static const char *const help[] = { "kcp-qemu", "-display", "none", "-help", NULL };
	static const char *const qmp[] = { "kcp-qemu", "-display", "none", "-machine",
					   "accel=kvm:tcg", "-qmp", "stdio", NULL };
	struct vm_config cfg = VM_CONFIG_INIT;
	struct strbuf sb = STRBUF_INIT;

	cfg.mem_mb = 768;
	wrapped(&sb, &cfg, VM_ACCEL_TCG, help);
	check_str(sb.buf, "qemu-system-x86_64 -display none -help");
	strbuf_reset(&sb);
	wrapped(&sb, &cfg, VM_ACCEL_TCG, qmp);
	check_str(sb.buf, "qemu-system-x86_64 -display none -machine accel=kvm:tcg -qmp stdio");
	strbuf_release(&sb);
}

static void test_last_timestamp(void)
{
	static const char text[] =
		"Booting from ROM..\\x1bc\\x1b[2J[    0.000000] Linux version 6.1\n"
		"[   14.637103]  sda: sda1\n"
		"mke2fs 1.47.0 [1.5] and [ 3.14]\n"
		"[   16.439945] EXT4-fs (sda1): unmounting filesystem.\n"
		"fsync /dev/sda [12.34567]\n"
		"libguestfs: sending SIGTERM to process 1305\n";
	double t = 0;

	check_int(guestfs_last_timestamp(text, strlen(text), &t), ==, 0);
	check_double(t, 16.439945, 1e-12);
	/* A timestamp cut at the end of the text does not count. */
	check_int(guestfs_last_timestamp("[ 1.000000] a\n[ 2.00000", 23, &t), ==, 0);
	check_double(t, 1.0, 1e-12);
	check_int(guestfs_last_timestamp("[1234.5] no\n", 12, &t), ==, -1);
	check_int(guestfs_last_timestamp("", 0, &t), ==, -1);
}

static void test_results_of_a_passed_and_a_failed_test(void)
{
	static const char ok[] = "[    1.000000] x\n[   16.439945] EXT4-fs: unmounting\n"
				 GUESTFS_OK_LINE "\nlibguestfs: closing guestfs handle\n";
	static const char failed[] =
		"libguestfs: launch: backend=direct\n"
		"supermin: error: lstat: No such file or directory: /lib/modules\r\n"
		"libguestfs: error: /usr/bin/supermin exited with error status 1, see debug messages above\n"
		"libguestfs: error: second\n"
		"libguestfs: closing guestfs handle\n";
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;

	guestfs_results(&sb, ok, strlen(ok), 0, 0, 0);
	check_str(sb.buf, "KCP 1 sample workload=libguestfs iter=0 metric=time unit=s "
		  "better=lower value=16.439945\nKCP 1 done\n");
	check_int(protocol_parse_buffer(&r, sb.buf, sb.len, "results.txt"), ==, 0);
	check(protocol_result_complete(&r, NULL));
	protocol_result_release(&r);
	strbuf_reset(&sb);

	/* Exit 0 without the line that says the test passed is no pass. */
	guestfs_results(&sb, ok, 20, 0, 0, 0);
	check_str(sb.buf, "KCP 1 error msg=\"libguestfs-test-tool exited without '"
		  GUESTFS_OK_LINE "'\"\n");
	strbuf_reset(&sb);

	guestfs_results(&sb, failed, strlen(failed), 1, 0, 0);
	check_int(protocol_parse_buffer(&r, sb.buf, sb.len, "results.txt"), ==, 0);
	check(!protocol_result_complete(&r, &why));
	check_str(r.error, "libguestfs-test-tool exited with status 1: libguestfs: error: "
		  "/usr/bin/supermin exited with error status 1, see debug messages above");
	protocol_result_release(&r);
	strbuf_reset(&sb);

	guestfs_results(&sb, "", 0, -1, 9, 0);
	check_str(sb.buf, "KCP 1 error msg=\"libguestfs-test-tool was killed by signal 9 "
		  "(Killed)\"\n");
	strbuf_reset(&sb);

	/* A timeout says nothing: vm_classify() reports the timeout. */
	guestfs_results(&sb, failed, strlen(failed), -1, 15, 1);
	check_str(sb.buf, "");
	strbuf_release(&sb);
	strbuf_release(&why);
}

static void write_image(const char *path, const char *version, int magic)
{
	unsigned char buf[0x400];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	unsigned off = 0x100;

	memset(buf, 0, sizeof(buf));
	if (magic)
		memcpy(buf + 0x202, "HdrS", 4);
	buf[0x20e] = (unsigned char)(off & 0xff);
	buf[0x20f] = (unsigned char)(off >> 8);
	memcpy(buf + 0x200 + off, version, strlen(version));
	check_int(write(fd, buf, sizeof(buf)), ==, sizeof(buf));
	close(fd);
}

static void test_kernel_release_from_the_header(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *dir = test_tmpdir();
	char *path = xstrfmt("%s/bzImage", dir);

	write_image(path, "6.1.192 (root@host) #1 SMP PREEMPT_DYNAMIC", 1);
	check_int(guestfs_kernel_release(&sb, path), ==, 0);
	check_str(sb.buf, "6.1.192");
	strbuf_reset(&sb);

	test_capture_start();
	write_image(path, "6.1.192 (root@host)", 0);
	check_int(guestfs_kernel_release(&sb, path), ==, -1);
	check(strstr(test_messages.buf, "is not a bzImage"));
	write_image(path, "", 1);
	check_int(guestfs_kernel_release(&sb, path), ==, -1);
	check(strstr(test_messages.buf, "names no kernel version"));
	unlink(path);
	check_int(guestfs_kernel_release(&sb, path), ==, -1);
	check(strstr(test_messages.buf, "cannot open kernel"));
	test_capture_stop();
	strbuf_release(&sb);
	free(path);
}

static void test_kernel_dir(void)
{
	char *d = guestfs_kernel_dir("/e", "0123456789abcdef0123");

	check_str(d, "/e/guestfs/0123456789abcdef");
	free(d);
}

/* A script in the test's directory, executable. */
static char *script(const char *name, const char *body)
{
	char *path = xstrfmt("%s/%s", test_tmpdir(), name);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "#!/bin/sh\nT='%s'\n%s", test_tmpdir(), body);
	check_int(strbuf_write_file(&sb, path), ==, 0);
	check_int(chmod(path, 0755), ==, 0);
	strbuf_release(&sb);
	return path;
}

static void slurp(struct strbuf *sb, const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);

	strbuf_reset(sb);
	check_int(strbuf_read_file(sb, path, 0), >=, 0);
	free(path);
}

/* A .config with every setting of the libguestfs profile, or without one of them. */
static char *profile_config(const char *name, const char *drop)
{
	struct strvec want = STRVEC_INIT;
	struct kconfig *kc = NULL;
	char *path = xstrfmt("%s/%s", test_tmpdir(), name);

	strvec_push(&want, "libguestfs");
	check_int(harness_config(&kc, NULL, "x86_64", &want), ==, 0);
	if (drop)
		check_int(kconfig_set(kc, drop, "n"), ==, 0);
	check_int(kconfig_save(kc, path), ==, 0);
	kconfig_free(kc);
	strvec_clear(&want);
	return path;
}

static int run_with(struct vm_result *res, struct vm_config *cfg, const char *tool,
		    const char *kdir, const char *run_dir)
{
	struct workload_spec spec = WORKLOAD_SPEC_INIT;
	char *s = xstrfmt("libguestfs:tool=%s", tool);
	int rc;

	check_int(workload_spec_parse(&spec, s), ==, 0);
	cfg->workload = &spec;
	mkdir_p(run_dir, 0777);
	rc = guestfs_run(res, cfg, kdir, run_dir);
	cfg->workload = NULL;
	workload_spec_release(&spec);
	free(s);
	return rc;
}

static void test_runs_of_a_fake_tool(void)
{
	const char *t = test_tmpdir();
	char *image = xstrfmt("%s/bzImage", t), *kdir = xstrfmt("%s/kdir", t);
	char *run = xstrfmt("%s/run", t), *config = profile_config("config", NULL);
	char *bad_config = profile_config("bad-config", "SCSI_VIRTIO");
	char *qemu = script("qemu", "printf '%s\\n' \"$@\" >\"$T/qemu-args\"\n");
	/* What libguestfs does: launch its hv with the appliance, print the console. */
	char *ok = script("ok", "echo run >>\"$T/count\"\n"
			  "env | grep -E '^(SUPERMIN|LIBGUESTFS|KCP_HV)_' | sort >\"$T/env\"\n"
			  "\"$LIBGUESTFS_HV\" -display none -cpu max -m 1280 -kernel \"$SUPERMIN_KERNEL\" "
			  "-append 'console=ttyS0' || exit 3\n"
			  "echo '[   12.345678] EXT4-fs (sda1): unmounting filesystem.'\n"
			  "echo '" GUESTFS_OK_LINE "'\n");
	char *fail = script("fail", "echo 'libguestfs: error: boom'; exit 1\n");
	char *panic = script("panic", "echo '[    1.000000] Kernel panic - not syncing: VFS: "
			     "Unable to mount root fs'; exit 1\n");
	char *hang = script("hang", "exec sleep 20\n");
	struct vm_config cfg = VM_CONFIG_INIT;
	struct vm_result res = VM_RESULT_INIT;
	struct strbuf sb = STRBUF_INIT;

	write_image(image, "6.1.192 (root@host) #1", 1);
	cfg.kernel = image;
	cfg.config_path = config;
	cfg.variant = "baseline";
	cfg.accel = VM_ACCEL_TCG;
	cfg.qemu = qemu;
	cfg.layout_seed = 86400;
	cfg.timeout = 10;

	/* The first run builds the appliance; when that fails the run says so. */
	check_int(run_with(&res, &cfg, fail, kdir, run), ==, -1);
	check_int(res.status, ==, RUN_GUEST_ERROR);
	check(strstr(res.reason.buf, "building and booting the appliance"));
	check(strstr(res.reason.buf, "libguestfs-test-tool exited with status 1: libguestfs: error: boom"));
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/prepared", kdir);
	check(access(sb.buf, F_OK) != 0);

	/* A pass: one unmeasured first run, then the measured one. */
	check_int(run_with(&res, &cfg, ok, kdir, run), ==, 0);
	check_int(res.status, ==, RUN_OK);
	check_int(res.accel, ==, VM_ACCEL_TCG);
	check_int(res.clock, ==, VM_CLOCK_ICOUNT);
	check_int(res.proto.nr_samples, ==, 1);
	check_str(res.proto.samples[0].metric, "time");
	check_double(res.proto.samples[0].value, 12.345678, 1e-12);
	slurp(&sb, t, "count");
	check_str(sb.buf, "run\nrun\n");
	check_int(run_with(&res, &cfg, ok, kdir, run), ==, 0);
	slurp(&sb, t, "count");
	check_str(sb.buf, "run\nrun\nrun\n");

	/* libguestfs's environment, and the wrapper that ran "qemu". */
	slurp(&sb, t, "env");
	check(strstr(sb.buf, "LIBGUESTFS_BACKEND=direct\n"));
	check(strstr(sb.buf, "LIBGUESTFS_BACKEND_SETTINGS=force_tcg\n"));
	check(strstr(sb.buf, "KCP_HV_CLOCK=icount:0\n"));
	check(strstr(sb.buf, "SUPERMIN_KERNEL_VERSION=6.1.192\n"));
	check(strstr(sb.buf, "/kdir/modules/6.1.192\n"));
	check(strstr(sb.buf, "LIBGUESTFS_CACHEDIR="));
	check(strstr(sb.buf, "/kdir/cache\n"));
	check(strstr(sb.buf, "LIBGUESTFS_HV="));
	slurp(&sb, kdir, "modules/6.1.192/modules.dep");
	check_str(sb.buf, "");
	slurp(&sb, t, "qemu-args");
	check(strstr(sb.buf, "-cpu\nqemu64\n-m\n512\n"));
	check(strstr(sb.buf, "console=ttyS0 " VM_ICOUNT_APPEND " kcp.layout=00000000000000086400 kcp.phase=xxxxxxxx\n"));
	check(strstr(sb.buf, "-icount\nshift=0,sleep=off\n-rtc\nbase=2001-01-02T00:00:00,clock=vm\n"));
	slurp(&sb, run, "hv.txt");
	check(strstr(sb.buf, " -icount shift=0,sleep=off "));
	slurp(&sb, run, "results.txt");
	check(strstr(sb.buf, "KCP 1 done"));

	/* --clock host: no icount, and libguestfs is told so. */
	cfg.clock = VM_CLOCK_HOST;
	check_int(run_with(&res, &cfg, ok, kdir, run), ==, 0);
	check_int(res.clock, ==, VM_CLOCK_HOST);
	slurp(&sb, t, "qemu-args");
	check(!strstr(sb.buf, "-icount"));
	/* --clock icount-idle: the wrapper gives qemu what the run records, sleep=on */
	cfg.clock = VM_CLOCK_ICOUNT_IDLE;
	check_int(run_with(&res, &cfg, ok, kdir, run), ==, 0);
	check_int(res.clock, ==, VM_CLOCK_ICOUNT_IDLE);
	slurp(&sb, t, "env");
	check(strstr(sb.buf, "KCP_HV_CLOCK=icount-idle:0\n"));
	slurp(&sb, t, "qemu-args");
	check(strstr(sb.buf, "-icount\nshift=0,sleep=on\n"));
	cfg.clock = VM_CLOCK_AUTO;

	/* A panic in the appliance's console, a hang, a kernel without the profile. */
	check_int(run_with(&res, &cfg, panic, kdir, run), ==, -1);
	check_int(res.status, ==, RUN_PANIC);
	check(strstr(res.reason.buf, "VFS: Unable to mount root fs"));
	cfg.timeout = 0.5;
	check_int(run_with(&res, &cfg, hang, kdir, run), ==, -1);
	check_int(res.status, ==, RUN_TIMEOUT);
	cfg.timeout = 10;
	cfg.config_path = bad_config;
	check_int(run_with(&res, &cfg, ok, kdir, run), ==, -1);
	check_int(res.status, ==, RUN_START_FAILED);
	check(strstr(res.reason.buf, "baseline lacks what libguestfs's appliance needs"));
	check(strstr(res.reason.buf, "CONFIG_SCSI_VIRTIO is not set"));
	cfg.config_path = config;
	check_int(run_with(&res, &cfg, "/nonexistent/libguestfs-test-tool", kdir, run), ==, -1);
	check_int(res.status, ==, RUN_START_FAILED);
	check(strstr(res.reason.buf, "cannot start '/nonexistent/libguestfs-test-tool'"));

	vm_result_release(&res);
	strbuf_release(&sb);
	free(image);
	free(kdir);
	free(run);
	free(config);
	free(bad_config);
	free(qemu);
	free(ok);
	free(fail);
	free(panic);
	free(hang);
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');

	/* The fake tool runs LIBGUESTFS_HV: this program under the wrapper's name. */
	if (!strcmp(base ? base + 1 : argv[0], GUESTFS_HV_NAME))
		return guestfs_hv_main(argc, (const char **)argv);
	test_init(argc, argv);
	TEST(test_wrap_applies_the_machine_and_the_clock);
	TEST(test_wrap_passes_probes_through);
	TEST(test_last_timestamp);
	TEST(test_results_of_a_passed_and_a_failed_test);
	TEST(test_kernel_release_from_the_header);
	TEST(test_kernel_dir);
	TEST(test_runs_of_a_fake_tool);
	return test_done();
}
