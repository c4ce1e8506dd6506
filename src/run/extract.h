/* extract.h: take a number out of a program's output (--extract), as a sample of its run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef EXTRACT_H
#define EXTRACT_H

#include <regex.h>
#include <stddef.h>

struct protocol_result;
struct strbuf;

/*
 * A cmd: workload's run samples the program's wall time ("time", s); an
 * --extract makes one more sample of the run from what the program
 * printed (its stdout and stderr, as the guest kept them: the last 64 KiB).
 * It is written
 *
 *	NAME,UNIT,higher|lower,SOURCE
 *
 * NAME is the metric ([a-z][a-z0-9_]*, not "time", "wall" or "boot"),
 * UNIT what the number is in ("MB/s", "K/s", "s"; no blanks, quotes or
 * commas), then which direction is better.  SOURCE, the rest of the
 * argument, says where the number is:
 *
 *	re:REGEX    a POSIX extended regular expression with one group: of
 *	            the lines it matches, the last; the group is the number
 *	            ("re:([0-9.]+) MB/s" on dd's "... copied, 4.1 s, 201 MB/s")
 *	csv:N       field N (from 1) of the last line with N or more
 *	            comma-separated fields (bonnie++'s result line)
 *	csv:FIELD   the field in the column headed FIELD: the last line with
 *	            a field FIELD is the header, the value is in the last line
 *	            after it with as many fields
 *	json:KEY    KEY (a.b.c for nested objects) of the last line that is a
 *	            JSON object; the value must be a number, or a string that is
 *	            one
 *
 * A number is a decimal ("201", "1.5e3", leading and trailing blanks
 * allowed) and must be finite; anything else, or no line that fits, makes
 * the run fail with the reason (RUN_MALFORMED, see vm.h).
 */

enum extract_kind {
	EXTRACT_RE,
	EXTRACT_CSV_INDEX,
	EXTRACT_CSV_NAME,
	EXTRACT_JSON,
};

#define EXTRACT_NAME_MAX 32
#define EXTRACT_UNIT_MAX 16

struct extract {
	char *spec;		/* as given: the canonical form */
	char *metric;
	char *unit;
	int higher_is_better;
	enum extract_kind kind;
	char *source;		/* the regex, field name or key */
	unsigned field;		/* EXTRACT_CSV_INDEX: from 1 */
	regex_t re;		/* EXTRACT_RE, compiled */
};
#define EXTRACT_INIT { 0 }

/*
 * Parses an --extract argument into out (EXTRACT_INIT or released).
 * Returns 0, or -1 after an error() naming the bad part and what is
 * allowed; out is then left released.
 */
int extract_parse(struct extract *out, const char *arg);
void extract_release(struct extract *x);

/*
 * Finds x's number in output[0..len).  Returns 0 with *value set, or -1
 * with the reason appended to why (no error printed): "no line matches
 * re:... (12 lines; the last: '...')", "'abc' is not a number".
 */
int extract_apply(const struct extract *x, const char *output, size_t len, double *value,
		  struct strbuf *why);

/*
 * When a program printed more than the guest keeps (64 KiB), the guest
 * (guest/cmd.c) sends the last 64 KiB from an arbitrary byte behind its
 * own line "[kcp-guest: the first N bytes of the output are left out]".
 * Neither that note nor the partial line after it is the program's: this
 * returns the offset of the first whole line the program printed (0 when
 * nothing was cut) and sets *cut to N (0 when nothing was cut).
 */
size_t extract_skip_cut(const char *output, size_t len, long long *cut);

/*
 * Adds a sample of metric x->metric, iteration 0, to r for each of the
 * nr extractions, taken from output's own lines (extract_skip_cut()): a
 * number printed only in the part the guest left out is not found, and
 * the reason says that part was cut.  Returns 0, or -1 with the first
 * failure's reason in why ("--extract throughput: ...") and r unchanged.
 */
int extract_samples(struct protocol_result *r, const char *workload,
		    const struct extract *x, size_t nr, const char *output, size_t len,
		    struct strbuf *why);

#endif
