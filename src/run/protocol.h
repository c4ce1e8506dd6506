/* protocol.h: the line protocol kcp-guest (or a --runner) uses to report results, and its parser. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PROTOCOL_H
#define PROTOCOL_H

#include <stddef.h>

/*
 * The protocol, version 1
 * =======================
 *
 * The guest writes lines to its own serial port (ttyS1; the kernel console
 * is ttyS0); a --runner writes them to its standard output.  A line that
 * does not start with "KCP " is not part of the protocol and is ignored, so
 * results may be interleaved with any other output.  A KCP line is
 *
 *	KCP <version> <kind> [<key>=<value>]...
 *
 * separated by single spaces or tabs, ending in "\n" (a "\r" before it is
 * dropped).  A value is either bare (no spaces, tabs or '"') or quoted:
 * "..." where \" and \\ stand for '"' and '\'.  Numbers are decimal
 * ([-]digits[.digits][e[+-]digits]), finite.  A reader ignores keys it does
 * not know, so later revisions of a version may add keys; anything else
 * that changes the meaning of a line needs a new version.
 *
 * Kinds, in the order they appear:
 *
 *	KCP 1 ready boot_s=0.812 [workload=hackbench] [clocksource=tsc]
 *		Init started and the workload is about to run.  boot_s is the
 *		time from boot to the start of init (CLOCK_BOOTTIME), seconds;
 *		clocksource is the guest kernel's current clocksource, the
 *		clock behind every time the guest measures.  Optional for a
 *		--runner; at most once, before any sample.  workload, when
 *		given, is the workload the run was asked for.
 *	KCP 1 sample workload=hackbench iter=0 metric=time unit=s better=lower value=0.2345
 *		One measurement of the workload the run was asked for (its
 *		name, without parameters).  iter counts from 0 per run;
 *		(metric, iter) is unique within a run.  metric is "time" or
 *		"throughput", unit says what value is in ("s", "ns", "us",
 *		"MB/s"), better is "lower" or "higher"; value is never negative.
 *		A metric's first sample fixes its unit and better: a later
 *		sample of it with another is malformed.  A time (unit s, ms, us
 *		or ns) lies between a nanosecond and 1e7 s, any other value is
 *		at most 1e15 (store/sample-range.h, the rule import follows too).
 *		An optional per=N (N >= 1) says the value is per N operations
 *		of the iteration (per=300000 for 300000 system calls): the
 *		host divides the iteration's instruction count by it too.
 *	KCP 1 done
 *		The workload finished and every sample was written.
 *	KCP 1 error msg="cannot open '/dev/vda': No such device"
 *		The run failed; msg says why.  Samples before it are kept.
 *
 * After "done" or "error" a run writes no further KCP lines.  A complete
 * run has "done" and no "error".
 */
#define KCP_PROTOCOL_VERSION 1
#define KCP_PROTOCOL_PREFIX "KCP "

/* Longest KCP line accepted (bytes, without the newline). */
#define KCP_LINE_MAX 4096
/* Most samples accepted from one run. */
#define KCP_SAMPLES_MAX 100000
/*
 * Most distinct metrics accepted from one run: each is a row of the
 * report.  A run over either cap is malformed and the rest of its output
 * is not parsed (40,000 distinct metrics took 10 s a run to parse).
 */
#define KCP_METRICS_MAX 64
/* Most of a run's output read to parse it (a sample line is ~100 bytes). */
#define KCP_OUTPUT_MAX ((size_t)64 << 20)

struct strbuf;

struct protocol_sample {
	char *workload;
	unsigned iteration;
	char *metric;
	char *unit;
	double value;
	int higher_is_better;
	double per;		/* operations the value is per (per=): 1 when not given */
};

/*
 * What one run reported.  Strings and samples are owned by the struct;
 * protocol_result_release() frees them.
 */
struct protocol_result {
	/*
	 * The workload the run was asked for (borrowed, set by the caller
	 * before parsing): a ready or sample line naming another is
	 * malformed.  NULL: any.
	 */
	const char *workload;
	int ready;		/* a ready line was seen */
	double boot_seconds;	/* its boot_s */
	char *clocksource;	/* its clocksource, or NULL */
	struct protocol_sample *samples;
	size_t nr_samples, alloc_samples;
	int done;		/* a done line was seen */
	char *error;		/* the run's own error message (first error line), or NULL */
	char *invalid;		/* the first malformed line's message, or NULL */
	unsigned nr_invalid;	/* how many lines were malformed */
	unsigned lines;		/* lines read so far (numbering for messages) */
	int capped;		/* over KCP_SAMPLES_MAX or KCP_METRICS_MAX: parsing stopped */
	/* Private to the parser: each metric's first sample, and a hash of (metric, iter). */
	size_t *metric_first;	/* index into samples */
	size_t nr_metrics, alloc_metrics;
	unsigned long long *seen;	/* open addressing, 0 empty, else key + 1 */
	size_t seen_size, nr_seen;
};
#define PROTOCOL_RESULT_INIT { 0 }

void protocol_result_init(struct protocol_result *r);
void protocol_result_release(struct protocol_result *r);

/*
 * Parses one line (without its "\n"; len bytes, NUL bytes allowed) into r.
 * origin and lineno name the line in messages ("results.txt:12: ...").
 * Returns 1 for a KCP line that was taken in, 0 for a line that is not part
 * of the protocol, and -1 for a malformed KCP line (bad syntax, version
 * mismatch, a bad number, a missing key, a line out of order).  Nothing is
 * printed: a run's output is the runner's to get wrong, as often as it
 * likes, so the first malformed line's message is kept in r->invalid and
 * the rest are counted in r->nr_invalid (protocol_add_invalid() says
 * both).  A malformed line changes nothing else in r.
 */
int protocol_parse_line(struct protocol_result *r, const char *line, size_t len,
			const char *origin, unsigned lineno);

/*
 * Parses every line of buf (the last one need not end in "\n"), numbering
 * them after the r->lines already read, so a stream can be fed in whole
 * lines over several calls.  Returns 0, or -1 when any line was malformed
 * (parsing goes on after them).
 */
int protocol_parse_buffer(struct protocol_result *r, const char *buf, size_t len,
			  const char *origin);

/*
 * Returns 1 when r is a complete run: done, no error line, no malformed
 * line.  Otherwise returns 0 and, when why is not NULL, appends the reason
 * to it ("guest error: ...", "malformed output: ...", "no 'done' line
 * (last sample iter=1)", "no output").
 */
int protocol_result_complete(const struct protocol_result *r, struct strbuf *why);

/*
 * Appends "malformed output: <the first malformed line's message>" and,
 * when there were more, " (and N more malformed lines)" to sb.  Nothing
 * when r has no malformed line.
 */
void protocol_add_invalid(struct strbuf *sb, const struct protocol_result *r);

/*
 * Appends msg quoted as a protocol value ("..." with '"' and '\' escaped,
 * control characters turned into '?') to sb.  For tests and runners.
 */
void protocol_quote(struct strbuf *sb, const char *msg);

#endif
