/* vm.h: boot one kernel under qemu (or a --runner) for one run, bounded, and classify the result. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef VM_H
#define VM_H

#include "run/protocol.h"
#include "store/status.h"
#include "util/strbuf.h"
#include "util/strvec.h"

struct child_process;
struct workload_spec;

/*
 * One run is one qemu process: it boots `kernel` with `initramfs` (whose
 * /init is kcp-guest), the guest runs one workload, reports on ttyS1 in the
 * line protocol of protocol.h and powers off.  The kernel console (ttyS0)
 * goes to <dir>/console.txt, the protocol lines to <dir>/results.txt and
 * qemu's own stdout and stderr to <dir>/qemu.txt; <dir> is the caller's and
 * must exist.  Every run is bounded by `timeout`: then qemu's process group
 * gets SIGTERM and, 2 s later, SIGKILL.
 *
 * With `runner` set, that command replaces qemu (a lab machine, a script):
 * it gets the run's identity in KCP_KERNEL, KCP_INITRAMFS, KCP_CMDLINE
 * (the kernel command line qemu would get), KCP_CONFIG, KCP_VARIANT,
 * KCP_WORKLOAD (the canonical workload spec), KCP_RUN, and also KCP_DIR (the
 * run's directory), KCP_MEM_MB and KCP_SMP, and must print the protocol
 * lines on its stdout (saved as results.txt); its stderr is saved as
 * console.txt, so a panic it shows there is recognised too.  Paths in KCP_*
 * are made absolute when they exist.  A runner with shell syntax or spaces
 * in it runs under "sh -c", otherwise it is executed directly.
 */

enum vm_accel {
	VM_ACCEL_AUTO = 0,	/* KVM if a bounded probe boot shows it works, else TCG */
	VM_ACCEL_KVM,
	VM_ACCEL_TCG,
	VM_ACCEL_RUNNER,	/* a --runner ran it: not ours to say */
};

/* "auto", "kvm", "tcg", "runner". */
const char *vm_accel_name(enum vm_accel accel);
/* Parses "auto", "kvm" or "tcg"; returns 0, or -1 with an error printed. */
int vm_accel_parse(enum vm_accel *out, const char *name);

#define VM_DEFAULT_QEMU "qemu-system-x86_64"
/*
 * The CPU model when cfg->cpu is NULL.  Under TCG "max" emulates every
 * feature qemu knows, "qemu64" a plain x86-64; see the commit that set
 * this for the boot times of both.  Under KVM "host" passes the real CPU.
 */
#define VM_DEFAULT_TCG_CPU "qemu64"
#define VM_DEFAULT_KVM_CPU "host"
#define VM_DEFAULT_MEM_MB 512
#define VM_DEFAULT_SMP 1
#define VM_DEFAULT_TIMEOUT 120.0
/* How long the KVM probe boot may take before KVM counts as broken. */
#define VM_KVM_PROBE_SECONDS 5.0
/* Lines of the console kept in vm_result.console_tail. */
#define VM_CONSOLE_TAIL_LINES 40

/*
 * What to run.  Strings and the workload are borrowed: the caller keeps
 * them alive while the config is used.
 */
struct vm_config {
	const char *qemu;	/* NULL: VM_DEFAULT_QEMU, looked up in PATH */
	const char *kernel;	/* bzImage */
	const char *initramfs;	/* gzip'd newc, see initramfs.h */
	enum vm_accel accel;
	const char *cpu;	/* -cpu; NULL: VM_DEFAULT_TCG_CPU or _KVM_CPU */
	int mem_mb;		/* 0: VM_DEFAULT_MEM_MB */
	int smp;		/* 0: VM_DEFAULT_SMP */
	/*
	 * A raw image attached read-only as a virtio disk (/dev/vda), or NULL.
	 * It is opened with cache=none (O_DIRECT on the host too), so the dd
	 * workload reads the host's disk, not its page cache: with the default
	 * cache the same runs varied from 470 to 1200 MB/s, with cache=none
	 * from 165 to 195 MB/s.  On a file system without O_DIRECT qemu
	 * cannot open the image: the run ends as RUN_EXIT_FAILED saying so.
	 */
	const char *disk;
	/* Rendered with workload_spec_cmdline(); NULL: "kcp.workload=boot". */
	const struct workload_spec *workload;
	const char *extra_append;	/* more kernel parameters, or NULL */
	double timeout;		/* seconds; 0: VM_DEFAULT_TIMEOUT */

	/* --runner: a command that replaces qemu, or NULL. */
	const char *runner;
	/* Only for the runner's environment (KCP_CONFIG, KCP_VARIANT, KCP_RUN). */
	const char *config_path;
	const char *variant;
	int run_number;
};

#define VM_CONFIG_INIT { 0 }

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
	double seconds;		/* host wall time of the whole qemu process */
	int exit_code;		/* qemu's exit status, -1 if none */
	struct protocol_result proto;
	/* Last VM_CONSOLE_TAIL_LINES lines of the console, set when not ok. */
	struct strbuf console_tail;
};

#define VM_RESULT_INIT { .reason = STRBUF_INIT, .exit_code = -1, \
			 .console_tail = STRBUF_INIT }

void vm_result_init(struct vm_result *res);
void vm_result_release(struct vm_result *res);

/*
 * Appends the kernel command line for cfg to out: "console=ttyS0 quiet
 * panic=-1 kcp.workload=NAME kcp.k=v ... <extra_append>".  The order is
 * fixed, so a recorded command line is reproducible.
 */
void vm_kernel_cmdline(struct strbuf *out, const struct vm_config *cfg);

/*
 * Appends qemu's argv for cfg with the given accel (KVM or TCG, never
 * AUTO) to argv, the serial ports going to console_path and results_path.
 */
void vm_qemu_argv(struct strvec *argv, const struct vm_config *cfg,
		  enum vm_accel accel, const char *console_path,
		  const char *results_path);

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
 * The classification vm_run() applies, for tests: from how the child ended
 * (cp's exit_code, signal, timed_out, start_errno, seconds, timeout), the
 * console text and the results text (protocol lines), sets out->status,
 * reason, seconds, exit_code, proto and console_tail.  qemu_log is qemu's
 * own output (its error messages), used in reasons; it may be NULL.
 * Precedence: start failure, panic, guest error, malformed, timeout, exit
 * failure, no done line.
 */
void vm_classify(struct vm_result *out, const struct child_process *cp,
		 const char *console, size_t console_len,
		 const char *results, size_t results_len, const char *qemu_log);

#endif
