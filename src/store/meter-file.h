/* meter-file.h: the meter's file, meter.txt: its version and records (the plugin writes it, run/meter.c reads it). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef METER_FILE_H
#define METER_FILE_H

/*
 * The one definition of the file kconfperf's qemu plugin (plugin/,
 * docs/meter.md) writes when qemu exits (to FILE.tmp, then renamed) and
 * run/meter.c parses: the plugin, built alone, includes this header as
 * the host does, so the two sides cannot drift (store-meter.c names its
 * phases from it too).  Plain C, no other header.  One record a line,
 * fields separated by single spaces:
 *
 *	kcp-meter 1
 *	target x86_64
 *	map 18234 symbols|none
 *	extable 383|none   (the exception table's instructions, extable=FILE)
 *	guest markers 4|none
 *	mark KIND ITER TOTAL PRE KERNEL KOTHER USER IDLE   (in order; KIND
 *		init, begin, end or poweroff; ITER counts begin/end from 0,
 *		else -1; the counters as they stood when the marker ran)
 *	total TOTAL PRE KERNEL KOTHER USER IDLE   (at qemu's exit: qemu's own count)
 *	started N   (instructions started: TOTAL and the starts that faulted)
 *	ops ADDS WATCHES CALLS   (the meter's own work: the inline adds it
 *		ran, the accesses its watches counted, an add each, and the
 *		callbacks it took, each a call out of the translated code)
 *	fn PHASE COUNT NAME   (PHASE boot: up to init; work: the sum of every
 *		begin..end; all: the whole run, up to the power-off marker when
 *		it ran (after it the kernel's power-off spins until qemu stops
 *		the vCPU, as host timing has it); only functions with a count;
 *		the buckets are named as store/idle-functions.h says)
 *	end
 *
 * KERNEL counts the instructions of every kernel function, IDLE those of
 * the idle loop's own functions among them (store/idle-functions.h).  A
 * file without its "end" line is incomplete (qemu was killed).  A change
 * a reader of version 1 would misread takes a new METER_FILE_VERSION.
 */
#define METER_FILE_VERSION 1
#define METER_FILE_MAGIC "kcp-meter"
#define METER_FILE_STR_(x) #x
#define METER_FILE_STR(x) METER_FILE_STR_(x)
/* The first line: "kcp-meter 1". */
#define METER_FILE_HEADER METER_FILE_MAGIC " " METER_FILE_STR(METER_FILE_VERSION)

/* The records: each line's first word. */
#define METER_REC_TARGET "target"
#define METER_REC_MAP "map"
#define METER_REC_EXTABLE "extable"
#define METER_REC_GUEST "guest"
#define METER_REC_MARK "mark"
#define METER_REC_TOTAL "total"
#define METER_REC_STARTED "started"
#define METER_REC_OPS "ops"
#define METER_REC_FN "fn"
#define METER_REC_END "end"
/* map, extable and guest without one */
#define METER_NONE "none"

/* A mark's KIND, in the order the names below have them. */
enum meter_mark_kind {
	METER_MARK_INIT,	/* init's first instruction: the boot ends */
	METER_MARK_BEGIN,	/* kcp_meter_begin: an iteration begins */
	METER_MARK_END,		/* kcp_meter_end: it ends */
	METER_MARK_POWEROFF,	/* kcp_meter_poweroff: kcp-guest asks to power off */
	METER_NR_MARKS
};
#define METER_MARK_NAMES "init", "begin", "end", "poweroff"

/* An fn line's PHASE (store-meter.h's enum store_meter_phase, in its order). */
#define METER_PHASE_BOOT "boot"
#define METER_PHASE_WORK "work"
#define METER_PHASE_ALL "all"

/*
 * The kernel's exception table the plugin is given (extable=FILE, written
 * by kbuild/elf-sizes.c): this line, then one address a line, in hex,
 * ascending.
 */
#define METER_EXTABLE_HEADER "kcp-extable 1"

#endif
