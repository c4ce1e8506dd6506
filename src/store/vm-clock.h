/* vm-clock.h: a run's accelerator and guest clock, typed for every stage: their names and their one parse. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef VM_CLOCK_H
#define VM_CLOCK_H

struct strbuf;

/*
 * The run stage chooses them (run/vm.h says what each means for a run),
 * the store keeps them with each run and as the experiment's conditions
 * (conditions.h), the reports show them: each is an enum with one table
 * of names here, and every text that names one (the command line's
 * --accel and --clock, a stored value) is read by the functions below,
 * so the rules cannot drift apart.  scripts/check-idioms refuses a
 * strcmp() on their names elsewhere.
 */

/* The accelerator qemu ran a guest with, stored by its name. */
enum vm_accel {
	VM_ACCEL_AUTO = 0,	/* KVM if a bounded probe boot shows it works, else TCG */
	VM_ACCEL_KVM,
	VM_ACCEL_TCG,
	VM_ACCEL_RUNNER,	/* a --runner ran it: not ours to say */
};

/* "auto", "kvm", "tcg", "runner"; "unknown" for a value out of range. */
const char *vm_accel_name(enum vm_accel accel);
/* The accelerator of a name vm_accel_name() gives (as stored): 0, or -1 (no message). */
int vm_accel_from_name(enum vm_accel *out, const char *name);
/*
 * --accel: "auto", "kvm" or "tcg" (a runner is --runner's, never
 * chosen by name); 0, or -1 with an error printed.
 */
int vm_accel_parse(enum vm_accel *out, const char *name);

/*
 * The guest's clock: stored by its name, with icount's shift after a
 * colon ("icount:0", "host"); --clock takes the same text.
 */
enum vm_clock {
	VM_CLOCK_AUTO = 0,	/* icount (or icount-idle) under TCG, host under KVM and a runner */
	VM_CLOCK_ICOUNT,
	VM_CLOCK_HOST,
	VM_CLOCK_ICOUNT_IDLE,
};

/* The largest shift qemu's -icount takes (2^10 ns of guest time per instruction). */
#define VM_ICOUNT_SHIFT_MAX 10

/* ICOUNT or ICOUNT_IDLE: guest time counts instructions (while it runs). */
int vm_clock_is_icount(enum vm_clock clock);
/* "auto", "icount", "host", "icount-idle"; "unknown" out of range. */
const char *vm_clock_name(enum vm_clock clock);
/* The clock of a name vm_clock_name() gives: 0, or -1 (no message). */
int vm_clock_from_name(enum vm_clock *out, const char *name);
/* "icount:0" (the name and icount's shift), or "host": how a clock is stored. */
void vm_clock_format(struct strbuf *sb, enum vm_clock clock, int shift);
/*
 * A stored clock, vm_clock_format()'s text: 0, or -1 (no message).  A
 * name without ":N" gives shift -1; NULL or "" (runs older than the
 * clock) is host time.  Read by the rule vm_clock_parse() reads --clock
 * by: a shift only after icount or icount-idle, N digits, 0 to
 * VM_ICOUNT_SHIFT_MAX.
 */
int vm_clock_scan(enum vm_clock *clock, int *shift, const char *text);
/*
 * --clock: "auto", "host", "icount" or "icount-idle" (the default
 * shift), or either icount with ":N", N in 0..VM_ICOUNT_SHIFT_MAX.
 * *shift gets N, or -1 for the default.  0, or -1 with an error printed.
 */
int vm_clock_parse(enum vm_clock *clock, int *shift, const char *spec);

#endif
