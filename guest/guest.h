/* guest.h: what kcp-guest's workloads use from its main program (results, parameters, clocks). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef GUEST_H
#define GUEST_H

#include <stddef.h>

#include "../src/run/protocol.h"
#include "../src/run/workload-table.h"

#define PRINTF(f, a) __attribute__((__format__(__printf__, f, a)))
/* As src/util/wrapper.h has it (the guest links no part of src/ but the tables). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * A workload is `int run_<id>(void)` (one per row of workloads.def).  It
 * takes `iterations` samples with report_sample() and returns 0, or returns
 * guest_error(...) when something failed.  It runs in a child of init, so
 * it may crash or exit without bringing the kernel down; processes it forks
 * must leave with _exit() and write nothing.  Any process it creates must
 * be reaped before it returns.
 */
#define WORKLOAD(id, metric, unit, better, flags, profile, summary) int run_##id(void);
#define PARAM(id, name, type, def, min, max, choices, help)
#include "../src/run/workloads.def"
#undef WORKLOAD
#undef PARAM

/*
 * The value of the running workload's parameter `name`: param_num() for
 * COUNT and SIZE parameters (already range-checked), param_str() for all.
 * Asking for a parameter the workload does not have is a bug in the
 * guest: it reports an error and exits the workload's process.
 */
unsigned long long param_num(const char *name);
const char *param_str(const char *name);

/* Writes "KCP 1 sample ..." for iteration iter of the running workload. */
void report_sample(unsigned iter, double value);

/*
 * Writes "KCP 1 error msg=..." with the formatted message and returns -1.
 * guest_error_errno() appends ": strerror(errno)".  Only the first error of
 * a run is written; later ones go to stderr (the console).
 */
int guest_error(const char *fmt, ...) PRINTF(1, 2);
int guest_error_errno(const char *fmt, ...) PRINTF(1, 2);

/*
 * Writes a sample line whose value is per `per` operations (a system
 * call, a fork, a round trip) of the iteration: "per=N" tells the host to
 * divide the iteration's instruction count as the value is divided.
 */
void report_sample_per(unsigned iter, double value, unsigned long long per);

/*
 * The instruction meter's phase markers (meter.c): call kcp_meter_begin()
 * right before an iteration's timed work and kcp_meter_end() right after
 * it, in pairs; kcp_meter_poweroff() before powering off.  Each does
 * nothing; the meter sees them run.
 */
void kcp_meter_begin(void);
void kcp_meter_end(void);
void kcp_meter_poweroff(void);

/* Seconds on CLOCK_MONOTONIC. */
double now(void);

/* The boot-to-init time: CLOCK_BOOTTIME when kcp-guest started, seconds. */
double boot_seconds(void);

/* Whether kcp-guest runs as the guest's init (not --host). */
int guest_is_init(void);

/* Absolute path of this program, for fork exec=1 (which runs it with --exit). */
const char *self_path(void);

/* write() everything, retrying on EINTR and short writes; 0 or -1. */
int write_all(int fd, const void *buf, size_t len);

#endif
