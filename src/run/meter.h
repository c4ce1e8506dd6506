/* meter.h: the instruction meter in a run: loading the plugin, reading its counts, the metrics they give. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef METER_H
#define METER_H

#include <stddef.h>
#include <stdint.h>

#include "store/meter-file.h"
#include "store/profile.h"
#include "store/store-meter.h"

struct protocol_result;
struct strbuf;

/*
 * Every run under icount loads kconfperf's qemu plugin, kcp-meter.so
 * (plugin/, docs/meter.md): it counts every guest instruction
 * exactly (its total equals qemu's own count), where it ran (before the
 * kernel, kernel, user; the idle loop apart) and, with the kernel's
 * System.map, in which kernel function.  kcp-guest marks phases by
 * running marker functions the plugin watches (guest/meter.c): init's
 * first instruction ends the boot, kcp_meter_begin/kcp_meter_end frame
 * each measured iteration.  It writes METER_FILE in the run's directory
 * when qemu exits; meter_read() reads it.
 *
 * "Busy" is every instruction but the idle loop's: under icount with
 * sleep=off a halted vCPU executes nothing, so busy instructions count the
 * work and not the waiting, and unlike guest time they do not move with the
 * timer tick's phase or the host's I/O.
 */
#define METER_FILE "meter.txt"
#define METER_PLUGIN_NAME "kcp-meter.so"
/* The sample every metered run gets: store/metric.h's METRIC_INSTRUCTIONS, in this unit. */
#define METER_UNIT "insn"

/*
 * The plugin: plugin if given, else $KCP_METER, else kcp-meter.so beside
 * this executable, appended to out (absolute).  0, or -1 with an error
 * saying how to get one.
 */
int meter_find_plugin(struct strbuf *out, const char *plugin);

/* The counters as they stood at a marker, or at the end. */
struct meter_counts {
	uint64_t total, before_kernel, kernel, kernel_other, user, idle;
};
/* Every instruction but the idle loop's. */
uint64_t meter_busy(const struct meter_counts *c);

struct meter_mark {
	enum meter_mark_kind kind;	/* store/meter-file.h */
	int iter;		/* begin and end: the iteration, from 0; else -1 */
	struct meter_counts c;
};

/* What the plugin wrote, parsed.  Owns everything; meter_result_release() frees it. */
struct meter_result {
	char *target;		/* qemu's target: "x86_64", "aarch64" */
	int has_map;		/* per-function counts were taken */
	int has_guest;		/* kcp-guest's markers were watched */
	struct meter_mark *marks;
	size_t nr_marks, alloc_marks;
	struct meter_counts total;
	/* instructions started: total plus those that faulted and started again ("started" line; 0: none) */
	uint64_t started;
	/*
	 * the meter's own work: its inline adds, the accesses its watches
	 * counted, and the callbacks it took ("ops" line; op_calls 0 from a
	 * plugin before it said)
	 */
	uint64_t op_adds, op_watches, op_calls;
	/* the kernel exception table's instructions it was given ("extable" line; 0: none) */
	uint64_t extable;
	/* per phase, System.map's names (and the buckets of idle-functions.h), merged */
	struct profile phases[STORE_METER_NR_PHASES];
};
void meter_result_init(struct meter_result *m);
void meter_result_release(struct meter_result *m);

/*
 * Parses the plugin's file (its format is store/meter-file.h's) from
 * buf[0..len); origin names it in messages.  A file without its "end"
 * line (qemu was killed) or with a malformed line is an error:
 * "meter.txt:12: expected 'fn PHASE COUNT NAME'" in why.  0, or -1.
 */
int meter_parse(struct meter_result *out, const char *buf, size_t len, const char *origin,
		struct strbuf *why);
/* meter_parse() of a file; a missing file says so in why. */
int meter_read(struct meter_result *out, const char *path, struct strbuf *why);

/*
 * What the workload's "instructions" metric is (for reports: "guest
 * instructions, idle excluded" and what they span):
 *   boot        busy instructions from the kernel's first to init's first
 *               (firmware and the decompressor excluded: they follow the
 *               image's compression, not the kernel's work), one sample
 *   libguestfs  every busy instruction of the appliance's qemu, one sample
 *   the others  busy instructions of each iteration (kcp_meter_begin to
 *               kcp_meter_end: every process, the kernel too), divided by
 *               the sample's per= (per system call, fork, round trip)
 *               when it has one; a cmd: workload's program, whole
 * workload is the workload's name ("boot", "syscall").
 */
const char *meter_metric_description(const char *workload);
/* The phase whose per-function counts make up that metric. */
enum store_meter_phase meter_metric_phase(const char *workload);

/*
 * Adds the workload's "instructions" samples (above) to proto, taken from
 * m; workload is its name.  A run that should have them and does not
 * (no init marker, an iteration without its markers) gets none, and why
 * says so; 0 when added (or none were due), -1 otherwise.
 */
int meter_add_samples(struct protocol_result *proto, const struct meter_result *m,
		      const char *workload, struct strbuf *why);

/*
 * The run's counts as stored (store-meter.h): totals, boot and work (busy),
 * iterations and their operations (proto's per=).  out->note is left NULL.
 */
void meter_store_counts(struct store_meter *out, const struct meter_result *m,
			const struct protocol_result *proto);

#endif
