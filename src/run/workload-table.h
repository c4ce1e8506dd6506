/* workload-table.h: the guest workloads and their parameters, shared by kconfperf and kcp-guest. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef WORKLOAD_TABLE_H
#define WORKLOAD_TABLE_H

#include <stddef.h>

/*
 * The data comes from workloads.def.  workload-table.c is compiled into both
 * programs (guest/workload-table.c includes it), so it may use only the C
 * library: no strbuf, no error().
 */

enum workload_id {
#define WORKLOAD(id, metric, unit, better, flags, profile, summary) WORKLOAD_##id,
#define PARAM(id, name, type, def, min, max, choices, help)
#include "run/workloads.def"
#undef WORKLOAD
#undef PARAM
	NR_WORKLOADS
};

/* workload_info.flags */
#define WL_TEST (1 << 0)	/* for kconfperf's own tests (hang, panic) */
#define WL_HOST (1 << 1)	/* runs on the host and boots the kernel itself (libguestfs) */
/*
 * A program of the host (cmd): its spec is "cmd:COMMAND", the guest mounts
 * the host's root over virtio-9p (tag WORKLOAD_HOST_ROOT_TAG) and writes
 * the program's output to its third serial port (ttyS2).
 */
#define WL_COMMAND (1 << 2)
/*
 * The workload waits (for timer ticks, for a disk): its guest time follows
 * where the ticks fall or the host's I/O, so --runs auto decides it on the
 * meter's busy instructions when there are some (stats/adaptive.h).
 */
#define WL_WAITS (1 << 3)

/* The virtio-9p mount tag of the host's root file system. */
#define WORKLOAD_HOST_ROOT_TAG "kcphost"
/* Longest TEXT value (a command line), bytes, before percent-encoding. */
#define WORKLOAD_TEXT_MAX 1024

struct workload_info {
	const char *name;
	const char *metric;	/* "time" or "throughput" */
	const char *unit;	/* "s", "ns", "us", "MB/s" */
	int higher_is_better;
	int flags;
	const char *profile;	/* the harness profile its kernels need, or NULL */
	const char *summary;
};

enum workload_param_type {
	WP_COUNT,	/* decimal integer in [min, max] */
	WP_SIZE,	/* integer with optional K/M/G (1024-based) suffix, in [min, max] */
	WP_CHOICE,	/* one of the '|'-separated `choices` */
	WP_BLOCKS,	/* a WP_SIZE that is a multiple of 512 */
	WP_PATH,	/* absolute path: no spaces, quotes, commas or backslashes */
	WP_TEXT,	/* printable text (tabs allowed), percent-encoded on the command line */
};

struct workload_param {
	enum workload_id workload;
	const char *name;
	enum workload_param_type type;
	const char *def;	/* the default, as it would be written on the command line */
	unsigned long long min, max;
	const char *choices;
	const char *help;
};

extern const struct workload_info workload_table[NR_WORKLOADS];
extern const struct workload_param workload_params[];
extern const size_t nr_workload_params;

/* Longest parameter value (PATH) accepted, without the NUL. */
#define WORKLOAD_VALUE_MAX 200

/* The workload's id, or -1 when there is none called `name`. */
int workload_find(const char *name);

/* Parameter `name` of workload `id`, or NULL. */
const struct workload_param *workload_param_find(int id, const char *name);

/*
 * Checks `value` against p's type and bounds.  Returns 0, with the number in
 * *num for WP_COUNT and WP_SIZE (0 for the other types; num may be NULL), or
 * -1 with a lowercase reason that names the value and what is allowed
 * written into why[size] (e.g. "'x' is not process or thread").
 */
int workload_param_check(const struct workload_param *p, const char *value,
			 unsigned long long *num, char *why, size_t size);

/*
 * TEXT values on the kernel command line: the kernel splits it at spaces
 * and has no escape for '"', so every byte that is not a letter, a digit
 * or one of "/._-+:@," is written as %XX.  workload_text_encode() appends
 * the encoding of text to out[size] (NUL-terminated, cut to fit) and
 * returns its full length; workload_text_decode() decodes s in place and
 * returns 0, or -1 for a '%' not followed by two hex digits.
 */
size_t workload_text_encode(char *out, size_t size, const char *text);
int workload_text_decode(char *s);

/*
 * Whether a cmd: command line needs /bin/sh: it has quotes, '$', '`',
 * '\\', redirections, pipes, ';', '&', globs, '#', '~', braces, parentheses
 * or a newline, or its first word assigns a variable (NAME=value).  Any
 * other command line is split at blanks and executed directly.
 */
int workload_command_needs_shell(const char *cmd);

#endif
