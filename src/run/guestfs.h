/* guestfs.h: the libguestfs workload: libguestfs-test-tool on the host boots the variant's kernel as its appliance. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef GUESTFS_H
#define GUESTFS_H

#include <stddef.h>

#include "run/vm.h"

struct strbuf;
struct strvec;

/*
 * The seed's workload (libguestfs-test-tool under qemu TCG, timed whole)
 * run as libguestfs itself runs it: kconfperf starts the tool on the host
 * with the variant's kernel as the appliance's
 *
 *   SUPERMIN_KERNEL          the variant's bzImage
 *   SUPERMIN_KERNEL_VERSION  its release, read from the bzImage's header
 *   SUPERMIN_MODULES         an empty module tree (a modules.dep and
 *                            nothing else): kconfperf builds only bzImage,
 *                            so what the appliance needs is built in
 *                            (harness profile libguestfs)
 *   LIBGUESTFS_BACKEND=direct, LIBGUESTFS_BACKEND_SETTINGS=force_tcg (under TCG)
 *   LIBGUESTFS_CACHEDIR      one per kernel, so appliances never mix
 *   LIBGUESTFS_HV            kconfperf itself under the name
 *                            GUESTFS_HV_NAME (guestfs_hv_main()), which
 *                            runs libguestfs's qemu command line as a
 *                            kconfperf run: vm_wrap_qemu_argv() gives it
 *                            cfg's -cpu, -m, -smp and clock (icount, the
 *                            RTC from the layout seed, VM_ICOUNT_APPEND)
 *
 * Each kernel has a directory of its own, kdir (guestfs_kernel_dir()):
 * modules/<release>/modules.dep, cache/ (the appliance), GUESTFS_HV_NAME
 * (a symbolic link to this executable) and, once the appliance was built
 * and booted by an unmeasured first run (prepare/ holds its output),
 * a file "prepared".  Measured runs thus never include supermin building
 * the appliance, only its up-to-date check, as every libguestfs launch has.
 *
 * A run's metrics: wall, the host wall time of the whole test as hyperfine
 * would measure it (the tool's process from start to exit), and the sample
 * "time", the last kernel timestamp the appliance printed (libguestfs
 * boots it with printk.time=1), in seconds of the run's guest clock; under
 * icount also "instructions", every busy instruction the appliance's qemu
 * ran (run/meter.h: the meter is loaded into it by the wrapper).
 */

#define GUESTFS_TOOL "libguestfs-test-tool"
#define GUESTFS_HV_NAME "kcp-qemu"
/* What the tool prints last when the test passed. */
#define GUESTFS_OK_LINE "===== TEST FINISHED OK ====="

/* DIR/guestfs/<first 16 digits of config_hash>, malloc'd. */
char *guestfs_kernel_dir(const char *experiment_dir, const char *config_hash);

/*
 * Runs the test once for cfg's kernel (cfg->kernel; cfg->config_path is
 * its effective .config, checked against the libguestfs profile first),
 * with its files in run_dir (console.txt: everything the tool printed,
 * results.txt: the protocol lines kconfperf made of it, hv.txt: the qemu
 * command line that ran) and fills *out as vm_run() does, classified by
 * vm_classify() (a panic in the appliance's console, a timeout, the
 * tool's first "libguestfs: error:" line as the run's error).  The first
 * run of a kernel prepares kdir first.  Returns 0 when the run was ok,
 * -1 otherwise; out->status RUN_START_FAILED (with an error printed) when
 * the harness itself failed: no tool, a kernel without the profile.
 */
int guestfs_run(struct vm_result *out, const struct vm_config *cfg, const char *kdir,
		const char *run_dir);
/*
 * The same run started, to run side by side with others (vm_start()):
 * preparing a kernel's appliance is done before it returns.  0 with *job
 * set (a prepare that failed gives a job without a process, its result in
 * out already), or -1 when the harness failed (RUN_START_FAILED).
 */
int guestfs_start(struct vm_job **job, struct vm_result *out, const struct vm_config *cfg,
		  const char *kdir, const char *run_dir);

/*
 * Appends the shell command of a run of cfg ("env K=V ... libguestfs-test-tool"),
 * quoted for pasting or for hyperfine, to out, and sets up kdir for it.
 * Returns 0 or -1 with an error.
 */
int guestfs_format_command(struct strbuf *out, const struct vm_config *cfg, const char *kdir);

/*
 * The LIBGUESTFS_HV wrapper: kconfperf started as GUESTFS_HV_NAME.  Reads
 * the run's machine from KCP_HV_QEMU, KCP_HV_ACCEL, KCP_HV_CLOCK
 * ("icount:N" or "host"), KCP_HV_LAYOUT, KCP_HV_CPU, KCP_HV_MEM and
 * KCP_HV_SMP, and the meter's KCP_HV_METER, KCP_HV_METER_MAP and
 * KCP_HV_METER_OUT (set by guestfs_run(); libguestfs passes its environment on),
 * appends the command line that boots to $KCP_HV_LOG and executes qemu
 * with vm_wrap_qemu_argv()'s argv.  Returns only on failure (127).
 */
int guestfs_hv_main(int argc, const char **argv);

/*
 * The kernel release in a bzImage's header ("6.1.192"), appended to out:
 * the setup header's kernel_version string up to its first space.
 * Returns 0, or -1 with an error naming the file.
 */
int guestfs_kernel_release(struct strbuf *out, const char *bzimage);

/*
 * The last kernel timestamp ("[   16.439945]": seconds with six digits
 * after the point) anywhere in text; 0 and *out when there is one, else -1.
 */
int guestfs_last_timestamp(const char *text, size_t len, double *out);

/*
 * The protocol lines for a finished test: a "time" sample and done when
 * it passed (exit 0 and GUESTFS_OK_LINE in console), else an error line
 * with the first "libguestfs: error:" line of console (or how the tool
 * ended); nothing when it timed out, so that vm_classify() says so.
 */
void guestfs_results(struct strbuf *out, const char *console, size_t len,
		     int exit_code, int signal, int timed_out);

#endif
