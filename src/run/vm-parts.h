/* vm-parts.h: what vm.c and its parts (vm-command.c, vm-classify.c) share; private to them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef VM_PARTS_H
#define VM_PARTS_H

/*
 * Not an interface: a run is vm.h's.  scripts/check-idioms refuses this
 * header anywhere but in src/run/vm*.c.
 */
#include <stddef.h>

#include "run/vm.h"

struct child_process;
struct strbuf;
struct strvec;

/* vm-command.c */

/* Whether cfg's workload runs a host program (cmd:). */
int vm_runs_command(const struct vm_config *cfg);
/* <run_dir>/name (run_dir "." when unset); the caller frees it. */
char *vm_run_file(const struct vm_config *cfg, const char *name);
/* How many scratch disks cfg's workload has. */
size_t vm_nr_scratch(const struct vm_config *cfg);
/*
 * <run_dir>/scratch-vdX.img of scratch disk i (X by its position, as
 * /dev/kcp/vdX in the guest), or NULL for a disk in the guest's memory,
 * which has no image.  The caller frees it.
 */
char *vm_scratch_image(const struct vm_config *cfg, size_t i);
/*
 * qemu's argv for cfg under accel, the console and results ports to those
 * files; quiet_boot adds "quiet" to the kernel's command line (the KVM
 * probe boots without it: the console shows the banner at once).
 */
void vm_build_argv(struct strvec *argv, const struct vm_config *cfg,
		   enum vm_accel accel, const char *console_path,
		   const char *results_path, int quiet_boot);
/*
 * Sets up cp (CHILD_PROCESS_INIT) to run cfg under accel with its files in
 * dir: qemu, or the runner with its environment; bounded by the timeout,
 * each file capped.
 */
void vm_prepare(struct child_process *cp, const struct vm_config *cfg,
		enum vm_accel accel, const char *dir, const char *console,
		const char *results, const char *qemu_log);

/* vm-classify.c */

/*
 * The last n lines of text (a final line without "\n" counts), without the
 * "\r" the serial console puts before each "\n".
 */
void vm_add_last_lines(struct strbuf *out, const char *text, size_t len, int n);

#endif
