/* profile-format.h: per-function instruction profiles out: callgrind's format, a table, two side by side. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PROFILE_FORMAT_H
#define PROFILE_FORMAT_H

struct profile;
struct strbuf;

/*
 * Appends p (store/profile.h) in the format Callgrind writes (valgrind's
 * docs, "Callgrind Format Specification"), which callgrind_annotate,
 * KCachegrind and cg_diff read: "desc:" lines (desc, one line per entry
 * of desc separated by '\n'), "cmd:" (cmd), "events: Ir" (instructions),
 * then per function "fl=" (vmlinux for a kernel function, the bucket's
 * own name for [user], [before-kernel], [kernel-other]), "fn=NAME" and
 * "0 COUNT" (counts rounded to whole instructions: there are no lines),
 * and last "summary: TOTAL".  The optional "# callgrind format" first line
 * is left out because cg_diff wants "desc:" or "cmd:" first.
 */
void profile_write_callgrind(struct strbuf *out, const struct profile *p, const char *cmd,
			     const char *desc);

/*
 * Appends p as a table, largest first: count, share of the total, name;
 * at most top rows (0: all), then the rest summed, the busy total (idle
 * excluded) and the total.  unit names what a count is ("insn per call").
 */
void profile_write_text(struct strbuf *out, const struct profile *p, int top, const char *unit);

/*
 * Appends a and b side by side, as perf diff does: per function (names
 * matched as they are: normalise both first) a's count, b's, the change
 * and its share of the change in busy instructions, sorted by the size of
 * the change; at most top rows (0: all), then the rest summed, and the
 * busy and idle totals, so the rows visibly add up to the change.
 */
void profile_write_diff(struct strbuf *out, const struct profile *a, const struct profile *b,
			const char *a_name, const char *b_name, int top, const char *unit);

#endif
