/* vm.h: boot one kernel under qemu (or a --runner) for one run, bounded, and classify the result. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef VM_H
#define VM_H

#include <stdint.h>

#include "run/findings.h"
#include "run/protocol.h"
#include "store/vm-clock.h"
#include "store/status.h"
#include "util/strbuf.h"
#include "util/strvec.h"

struct child_process;
struct meter_result;
struct workload_spec;

/*
 * One run is one qemu process: it boots `kernel` with `initramfs` (whose
 * /init is kcp-guest), the guest runs one workload, reports on a port of
 * its own in the line protocol of protocol.h and powers off.  The kernel
 * console goes to <dir>/console.txt, the protocol lines to
 * <dir>/results.txt and qemu's own stdout and stderr to <dir>/qemu.txt;
 * <dir> is the caller's and must exist.
 *
 * The machine depends on the kernel's arch (cfg->arch, plan/arch.h names):
 *   x86_64  qemu-system-x86_64, console ttyS0, results on ttyS1 (a second
 *           8250), the disk on virtio PCI
 *   arm64   qemu-system-aarch64 -M virt, console ttyAMA0 (virt's one
 *           PL011), results on hvc0 (a virtio console), the disk on
 *           virtio-mmio
 * kcp-guest of each arch opens its results port (guest/kcp-guest.c).
 *
 * Every run is bounded by `timeout`: then qemu's process group gets
 * SIGTERM and, 2 s later, SIGKILL.  Each of those files is capped at
 * KCP_OUTPUT_MAX (64 MiB): a run that writes more is stopped the same way
 * and fails (RUN_MALFORMED), for what was cut off may be its samples.
 *
 * With `runner` set, that command replaces qemu (a lab machine, a script):
 * it gets the run's identity in KCP_KERNEL, KCP_INITRAMFS, KCP_CMDLINE
 * (the kernel command line qemu would get), KCP_CONFIG, KCP_VARIANT,
 * KCP_WORKLOAD (the canonical workload spec), KCP_RUN, and also KCP_DIR (the
 * run's directory), KCP_MEM_MB, KCP_SMP and KCP_ARCH (x86_64, arm64) (for a
 * cmd workload KCP_OUTPUT, the file the program's output goes to, as
 * kcp-guest --host writes it; its --extract numbers are taken from there),
 * and must print the protocol
 * lines on its stdout (saved as results.txt); its stderr is saved as
 * console.txt, so a panic it shows there is recognised too.  Paths in KCP_*
 * are made absolute when they exist.  A runner with shell syntax or spaces
 * in it runs under "sh -c", otherwise it is executed directly.
 */

/* enum vm_accel, its names and --accel's parse: store/vm-clock.h (every stage's). */

/*
 * The guest's clock.  Under TCG, qemu's icount makes guest time count
 * instructions: `-icount shift=N,sleep=off` advances the virtual clock by
 * 2^N ns per instruction executed and jumps over idle time at once, so what
 * the guest measures no longer depends on the host's load or speed.  Its
 * RTC then starts from a date derived from the run's layout seed (`-rtc
 * base=DATE,clock=vm`) instead of host time.  The guest kernel seeds its
 * randomness from that clock, so the seed picks the address-space layout:
 * a run repeated with the same seed gives the same values to the
 * nanosecond, and runs with different seeds sample layouts, whose spread
 * is the workload's real layout sensitivity.
 *
 * VM_CLOCK_HOST is qemu's default: guest time follows host time, and the
 * RTC starts from the host's clock.  KVM and a --runner always use it.
 */
/*
 * VM_CLOCK_ICOUNT_IDLE is icount with sleep=on: instructions count as
 * under VM_CLOCK_ICOUNT while the guest runs, and while it is idle,
 * waiting for I/O, its clock follows the host's.  With sleep=off an idle
 * guest jumps to its next timer at once, so a wait for a 9p read or a
 * disk request costs as many timer ticks as pass, at that speed, before
 * the host completes it: measured here (6.1 tinyconfig, HZ=250, host
 * load 9-12), the same dd through dm-crypt on LVM with the same layout
 * seed took 31.7 s and then 6.3 s of guest time (2000 reads of 8 KiB, 16
 * s of host time), and gcc on one file 64, 91 and 71 s, against 1.3 and
 * 1.5 s, and 0.9-1.3 s, with sleep=on.  So under TCG AUTO takes it for
 * every workload that waits for I/O: cmd (the host's programs come over
 * 9p) and any with scratch disks.  The waits then move with host load;
 * the rest does not.
 */
/* enum vm_clock, its names and --clock's parse (vm_clock_parse()): store/vm-clock.h. */

/*
 * Shift 0, 1 ns of guest time per instruction: chosen by bench/clock
 * (docs/guest-time.md, "Why shift 0"): every shift repeats a run to the
 * nanosecond for its layout seed, shift 0 costs no more wall time than the
 * others (VM_ICOUNT_APPEND removes the busy-waited spans), and a larger
 * shift adds timer-tick work to what is measured.
 */
#define VM_DEFAULT_ICOUNT_SHIFT 0
/*
 * The date the guest's RTC starts from for a layout seed, as qemu's -rtc
 * base= takes it ("2014-06-21T03:17:09"): a second within 2001-2030.
 */
void vm_rtc_base(struct strbuf *out, uint64_t layout_seed);

#define VM_DEFAULT_ARCH "x86_64"
/* x86_64's qemu and CPU models: vm_default_qemu() and vm_default_cpu() give every arch's. */
#define VM_DEFAULT_QEMU "qemu-system-x86_64"
/* The directory a cmd workload's guest sees as its root (read-only). */
#define VM_HOST_ROOT "/"
/*
 * The CPU model when cfg->cpu is NULL.  Under TCG "max" emulates every
 * feature qemu knows, "qemu64" a plain x86-64; see the commit that set
 * this for the boot times of both.  Under KVM "host" passes the real CPU.
 */
#define VM_DEFAULT_TCG_CPU "qemu64"
#define VM_DEFAULT_KVM_CPU "host"
/*
 * arm64 under TCG: cortex-a57 (ARMv8.0) boots fastest here, see
 * docs/boards.md ("arm64") for the boot times of each model.
 */
#define VM_DEFAULT_TCG_CPU_ARM64 "cortex-a57"
#define VM_DEFAULT_MEM_MB 512
#define VM_DEFAULT_SMP 1
#define VM_DEFAULT_TIMEOUT 120.0
/* What the command line takes (cmd-options.h): anything else is nonsense, not a default. */
#define VM_MIN_MEM_MB 64
#define VM_MAX_MEM_MB (1024 * 1024)
#define VM_MAX_SMP 1024
#define VM_MAX_TIMEOUT (7 * 24 * 3600.0)
/* How long the KVM probe boot may take before KVM counts as broken. */
#define VM_KVM_PROBE_SECONDS 5.0
/* Lines of the console kept in vm_result.console_tail. */
#define VM_CONSOLE_TAIL_LINES 40

/*
 * What to run.  Strings and the workload are borrowed: the caller keeps
 * them alive while the config is used.
 */
struct vm_config {
	const char *arch;	/* the kernel's, plan/arch.h names; NULL: VM_DEFAULT_ARCH */
	const char *qemu;	/* NULL: vm_default_qemu(arch), looked up in PATH */
	const char *kernel;	/* bzImage */
	const char *initramfs;	/* gzip'd newc, see initramfs.h */
	enum vm_accel accel;
	const char *cpu;	/* -cpu; NULL: vm_default_cpu() */
	int mem_mb;		/* 0: VM_DEFAULT_MEM_MB */
	int smp;		/* 0: VM_DEFAULT_SMP */
	enum vm_clock clock;
	int icount_shift;	/* -1: VM_DEFAULT_ICOUNT_SHIFT */
	uint64_t layout_seed;	/* the guest RTC's base under icount (see enum vm_clock) */
	/*
	 * A raw image attached read-only as a virtio disk (/dev/vda), or NULL.
	 * It is opened with cache=none (O_DIRECT on the host too), so the dd
	 * workload reads the host's disk, not its page cache: with the default
	 * cache the same runs varied from 470 to 1200 MB/s, with cache=none
	 * from 165 to 195 MB/s.  On a file system without O_DIRECT qemu
	 * cannot open the image: the run ends as RUN_EXIT_FAILED saying so.
	 */
	const char *disk;
	/*
	 * Rendered with workload_spec_cmdline(); NULL: "kcp.workload=boot".
	 * The workload also says what else the machine has:
	 *  - a cmd workload (WL_COMMAND) gets the host's root file system,
	 *    read-only over virtio-9p (VM_HOST_ROOT, tag
	 *    WORKLOAD_HOST_ROOT_TAG), and a third serial port (ttyS2) whose
	 *    output, the program's, goes to <run_dir>/output.txt; its
	 *    --extract numbers are taken from there after the run (extract.h),
	 *    and a run whose output lacks one is RUN_MALFORMED with the reason;
	 *  - each scratch disk is a sparse image <run_dir>/scratch-vdX.img
	 *    made before the run and removed after it, attached as a virtio
	 *    disk with cache=unsafe (the host's page cache, flushes ignored:
	 *    what is measured is the guest kernel's work, not the host's
	 *    disk), before `disk`; one whose first layer is "ram" is in the
	 *    guest's memory instead (brd, sized on the command line).
	 */
	const struct workload_spec *workload;
	/* Where a run's scratch images and output go; vm_run() sets it to its dir. */
	const char *run_dir;
	const char *extra_append;	/* more kernel parameters, or NULL */
	/*
	 * The instruction meter (run/meter.h): its plugin, or NULL for none.
	 * It is loaded where it counts exactly, under icount (TCG), never
	 * under the host clock, KVM or a runner; the kernel then boots with
	 * nokaslr, so its functions are where meter_map (its System.map, or
	 * NULL: no per-function counts) says.  meter_guest is kcp-guest's
	 * ELF, whose phase markers it watches (NULL: none); it writes its
	 * counts to meter_out (NULL: <run_dir>/METER_FILE).
	 */
	const char *meter;
	const char *meter_map;
	const char *meter_guest;
	const char *meter_out;
	double timeout;		/* seconds; 0: VM_DEFAULT_TIMEOUT */

	/* --runner: a command that replaces qemu, or NULL. */
	const char *runner;
	/* Only for the runner's environment (KCP_CONFIG, KCP_VARIANT, KCP_RUN). */
	const char *config_path;
	const char *variant;
	int run_number;
};

#define VM_CONFIG_INIT { .icount_shift = -1 }

void vm_config_init(struct vm_config *cfg);

/*
 * One run's outcome.  Owns its buffers; vm_result_release() frees them.
 * proto holds whatever the guest reported, even for a failed run (samples
 * before an error, the boot time before a hang).
 */
struct vm_result {
	enum run_status status;	/* how it ended (status.h): RUN_OK, RUN_TIMEOUT ... */
	struct strbuf reason;	/* one line, empty when ok: "timed out after 30 s ..." */
	enum vm_accel accel;	/* what the run really used: KVM, TCG or RUNNER */
	enum vm_clock clock;	/* and its clock: ICOUNT or HOST */
	int icount_shift;	/* under icount, else -1 */
	double seconds;		/* host wall time of the whole qemu process */
	int exit_code;		/* qemu's exit status, -1 if none */
	struct protocol_result proto;
	/* Last VM_CONSOLE_TAIL_LINES lines of the console, set when not ok. */
	struct strbuf console_tail;
	/*
	 * The workload's name the run was asked for (borrowed; vm_run() sets
	 * it): protocol lines about another are malformed.  NULL: any.
	 */
	const char *workload;
	/*
	 * The meter's counts (owned), when it was loaded and wrote them: its
	 * "instructions" samples are in proto already.  A run that was ok
	 * but whose counts are missing or incomplete is RUN_MALFORMED.
	 */
	struct meter_result *meter;
	int meter_loaded;	/* the run loaded the meter */
	/*
	 * The kernel's own reports on the console (lockdep, WARN, KASAN ...:
	 * findings.h), whether or not the run was ok.
	 */
	struct findings findings;
};

#define VM_RESULT_INIT { .reason = STRBUF_INIT, .exit_code = -1, .icount_shift = -1, \
			 .console_tail = STRBUF_INIT }

void vm_result_init(struct vm_result *res);
void vm_result_release(struct vm_result *res);

/*
 * The clock a run of cfg uses under accel (KVM, TCG or RUNNER): icount only
 * under TCG.  *shift gets the icount shift, or -1 for the host clock.
 * Returns -1 with an error printed when cfg asks for icount where it
 * cannot be had (KVM, a runner).
 */
int vm_effective_clock(enum vm_clock *out, int *shift, const struct vm_config *cfg,
		       enum vm_accel accel);

/*
 * The kernel parameters of every run under icount.  Each removes a span
 * of busy-waited guest time or a dependence on anything but the layout
 * seed; together they make a run at shift 0 as fast as one without icount
 * (docs/guest-time.md):
 *   noapictimer       the tick comes from the HPET, so the kernel does not
 *                     calibrate the local APIC timer by spinning for 100 ms
 *                     of guest time (10^8 instructions at shift 0)
 *   no_timer_check    nor check the IO-APIC timer by spinning
 *   tsc_early_khz=1000000   nor calibrate the TSC: under icount it counts
 *                     guest nanoseconds, 1 GHz whatever the shift
 *   tsc=reliable      no clocksource watchdog comparing clocks every 0.5 s
 *   norandmaps        userspace layout from kcp.layout (kcp-guest), not from
 *                     the kernel's randomness, which host timing can perturb:
 *                     with it a run repeats to the nanosecond under full
 *                     host load; without it about one run in three moved
 *                     by 1-4% there
 */
#define VM_ICOUNT_APPEND "noapictimer no_timer_check tsc_early_khz=1000000 tsc=reliable norandmaps"
/*
 * arm64 needs none of x86's: the generic timer's frequency is read from
 * CNTFRQ, never calibrated ("Calibrating delay loop (skipped)"), and it is
 * the one clocksource, so shift 0 is also the fastest shift there (docs/boards.md,
 * "arm64").  What remains is norandmaps; and qemu's -seed, set to the
 * layout seed, pins the random seeds virt writes into the device tree
 * (rng-seed, kaslr-seed), which a kernel with RANDOMIZE_BASE places itself
 * by.  On tinyconfig neither the RTC nor -seed moved a value: the layout
 * is kcp.layout's alone there.
 */
#define VM_ICOUNT_APPEND_ARM64 "norandmaps"

/*
 * Whether a run of cfg under accel loads the meter (cfg->meter set, the
 * clock icount): 1 or 0.
 */
int vm_meter_loaded(const struct vm_config *cfg, enum vm_accel accel);

/*
 * Whether kconfperf can boot kernels of arch (an arch of plan/arch.h with a
 * machine in vm.c's table); NULL is VM_DEFAULT_ARCH.
 */
int vm_arch_known(const char *arch);

/* The qemu machine arch boots on: "virt", or x86_64's "pc" (qemu's default, not passed). */
const char *vm_machine(const char *arch);
/* The qemu program of arch: "qemu-system-x86_64", "qemu-system-aarch64". */
const char *vm_default_qemu(const char *arch);
/* The -cpu model of arch under accel when --cpu is not given. */
const char *vm_default_cpu(const char *arch, enum vm_accel accel);

/*
 * How many characters kcp.phase= pads a run's command line with: 0-63,
 * drawn from its layout seed.  Under icount a boot waits for timer ticks
 * (acpi_init, pty_init, ...), and which tick a wait ends on depends on
 * every instruction before it: one kernel booted in 0.133 to 0.154 s at
 * 32 padding lengths here, in 4 ms steps, while a system call moved by
 * 0.05%.  A command line of one length for every run made that a fixed
 * offset per kernel, which no number of runs averages and the A/A control
 * cannot see; a length per layout seed samples where the ticks fall, so
 * it is spread that the runs average and the intervals include.
 */
size_t vm_phase_padding(uint64_t layout_seed);

/*
 * Appends the kernel command line of a run of cfg under accel to out:
 * "console=ttyS0 quiet panic=-1 [VM_ICOUNT_APPEND kcp.layout=SEED kcp.phase=x...]
 * kcp.workload=NAME kcp.k=v ... <extra_append>", the icount part when the
 * run uses that clock (arm64: console=ttyAMA0 and VM_ICOUNT_APPEND_ARM64).  The order is fixed, so a recorded command line is
 * reproducible.
 */
void vm_kernel_cmdline(struct strbuf *out, const struct vm_config *cfg, enum vm_accel accel);

/*
 * Appends qemu's argv for cfg with the given accel (KVM or TCG, never
 * AUTO) to argv, the serial ports going to console_path and results_path.
 */
void vm_qemu_argv(struct strvec *argv, const struct vm_config *cfg,
		  enum vm_accel accel, const char *console_path,
		  const char *results_path);

/*
 * Another program's qemu command line, run as cfg under accel: libguestfs
 * starts its own qemu (LIBGUESTFS_HV), and kconfperf's wrapper gives it
 * the machine and the clock of a kconfperf run.  Appends cfg's qemu to
 * out, then argv[1..] with the values of -cpu, -m and -smp replaced by
 * cfg's (added when missing), the clock's kernel parameters added to
 * -append (the icount part of vm_kernel_cmdline()), and at the end the
 * clock's -icount and -rtc (an -rtc of argv merged into it) and the
 * meter's -plugin when it is loaded (vm_meter_loaded()).  An argv
 * without -kernel (libguestfs probing qemu with -help, -version or QMP)
 * only gets cfg's qemu as argv[0].
 */
void vm_wrap_qemu_argv(struct strvec *out, const struct vm_config *cfg,
		       enum vm_accel accel, const char *const *argv);

/*
 * Appends argv to out as one shell command line, each word quoted only
 * when it needs it ('...' with ' written as '\''), so a user can paste it
 * or hand it to hyperfine.
 */
void vm_quote_argv(struct strbuf *out, const char *const *argv);

/*
 * Appends the shell command that run would execute (qemu's, or the runner
 * with its KCP_* environment as "env K=V ... CMD") to out, with the accel
 * resolved (which may run the KVM probe).  Returns 0 or -1 with an error.
 */
int vm_format_command(struct strbuf *out, const struct vm_config *cfg, const char *dir);

/*
 * Resolves cfg->accel: KVM and TCG are returned as they are; AUTO runs the
 * probe once per process (the answer is cached, keyed by nothing: one host,
 * one answer) -- boot cfg's kernel and initramfs under KVM for at most
 * VM_KVM_PROBE_SECONDS and take KVM if the guest printed anything.  Says
 * what it decided with note(): "kvm probe: no output within 5 s; using tcg".
 */
enum vm_accel vm_resolve_accel(const struct vm_config *cfg);
/* Forgets the cached probe answer (for tests). */
void vm_forget_probe(void);

/*
 * Runs cfg once with its files in dir and fills *out (which the caller has
 * initialised; it is reset first).  Returns 0 when the run was ok and -1
 * otherwise; out->status and out->reason say why, and nothing is printed
 * for a failed run -- a failed run is a result, not an error.  Only
 * problems of the harness itself (dir not writable) print an error.
 */
int vm_run(struct vm_result *out, const struct vm_config *cfg, const char *dir);

/*
 * Runs side by side: vm_start() starts what vm_run() runs and returns at
 * once with the run under way in *job; the caller waits for its process
 * (vm_job_process(): finish_command(), or wait_any_command() over several
 * jobs' processes), then vm_job_finish() fills *out as vm_run() does and
 * frees the job.  vm_run() is exactly that, one job.  Under icount a run's
 * guest time and instructions do not depend on what else the host runs,
 * so runs side by side give the values they give alone (its wall time is
 * the host's, shared).
 *
 * vm_start() returns 0 with *job set, or -1 when the run cannot start
 * (out->status RUN_START_FAILED, the reason said; *job NULL).  A qemu
 * that cannot be executed is a started job without a process
 * (vm_job_process() NULL): finish it at once, it is classified as vm_run()
 * classifies it.  out is the caller's from vm_start() to vm_job_finish().
 */
struct vm_job;
int vm_start(struct vm_job **job, struct vm_result *out, const struct vm_config *cfg,
	     const char *dir);
/* The job's process to wait for, or NULL when it has none (not started). */
struct child_process *vm_job_process(struct vm_job *job);
/* Once its process has ended: the result in out (0 ok, -1 not); frees job. */
int vm_job_finish(struct vm_job *job, struct vm_result *out);

/*
 * For the run modules beside vm.c (guestfs.c): a job whose process the
 * maker starts itself (vm_job_process() then has it), with cfg copied
 * (run_dir set to a copy of dir) and finish called by vm_job_finish(),
 * which must release data.
 */
typedef void (*vm_job_finish_fn)(struct vm_job *job, struct vm_result *out);
struct vm_job *vm_job_new(const struct vm_config *cfg, const char *dir, vm_job_finish_fn finish,
			  void *data);
const struct vm_config *vm_job_config(const struct vm_job *job);
/* The job's process, started or not (its maker sets it up and starts it). */
struct child_process *vm_job_child(struct vm_job *job);
void *vm_job_data(const struct vm_job *job);

/*
 * After a run of cfg that loaded the meter: reads its counts into
 * out->meter and adds the workload's (out->workload's) "instructions"
 * samples to out->proto; an ok run whose counts are missing or incomplete
 * becomes RUN_MALFORMED, saying why.  vm_run() does this itself.
 */
void vm_read_meter(struct vm_result *out, const struct vm_config *cfg);

/*
 * The classification vm_run() applies, for tests: from how the child ended
 * (cp's exit_code, signal, timed_out, exceeded, start_errno, seconds,
 * timeout), the console text and the results text (protocol lines: the
 * first KCP_OUTPUT_MAX + 1 bytes of them, so that more shows), sets
 * out->status, reason, seconds, exit_code, proto and console_tail.
 * qemu_log is qemu's own output (its error messages), used in reasons; it
 * may be NULL.  Precedence: start failure, output over the cap, panic,
 * guest error, malformed, timeout, exit failure, no done line.
 */
void vm_classify(struct vm_result *out, const struct child_process *cp,
		 const char *console, size_t console_len,
		 const char *results, size_t results_len, const char *qemu_log);

#endif
