/* findings.c: find the kernel's own reports (lockdep, KASAN, WARN, BUG, stalls ...) on a console. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/findings.h"
#include "util/strbuf.h"
#include "util/wrapper.h"

/* Lines after a BUG or an Oops whose own Oops line is part of the same report. */
#define FOLD_LINES 8

/*
 * What lockdep (and its RCU checks) says after "WARNING: " or "BUG: " or
 * "INFO: " (kernel/locking/lockdep.c, kernel/rcu/).
 */
static const char *const lockdep_phrases[] = {
	"possible circular locking dependency",
	"possible recursive locking",
	"inconsistent lock state",
	"suspicious RCU usage",
	"possible irq lock inversion dependency",
	"lock order detected",
	"bad unlock balance detected",
	"held lock freed",
	"lock held when returning to user space",
	"still has locks held",
	"Nested lock was not taken",
	"bad contention detected",
	"trying to register non-static key",
	"MAX_LOCKDEP",
	"MAX_LOCK_DEPTH too low",
	"looking up invalid subclass",
	"lockdep bfs error",
};

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(s, prefix, n);
}

static int contains(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

/*
 * The text of a console line after the kernel's prefixes: a "<N>" log
 * level, a "[ 1.234567]" timestamp and a "[ T1]" / "[ C0]" caller id
 * (PRINTK_CALLER), then blanks.  *len is updated.
 */
static const char *strip_prefix(const char *s, size_t *len)
{
	const char *end = s + *len, *p = s;

	if (p < end && *p == '<') {
		const char *q = p + 1;

		while (q < end && isdigit((unsigned char)*q))
			q++;
		if (q > p + 1 && q < end && *q == '>')
			p = q + 1;
	}
	while (p < end && *p == '[') {
		const char *q = p + 1;

		while (q < end && *q == ' ')
			q++;
		if (q < end && (*q == 'T' || *q == 'C'))
			q++;
		while (q < end && (isdigit((unsigned char)*q) || *q == '.'))
			q++;
		if (q >= end || *q != ']' || q == p + 1)
			break;
		p = q + 1;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	*len = (size_t)(end - p);
	return p;
}

static size_t hex_run(const char *s, const char *end)
{
	const char *p = s;

	while (p < end && isxdigit((unsigned char)*p))
		p++;
	return (size_t)(p - s);
}

static size_t digit_run(const char *s, const char *end)
{
	const char *p = s;

	while (p < end && isdigit((unsigned char)*p))
		p++;
	return (size_t)(p - s);
}

static int word_char(int c)
{
	return isalnum(c) || c == '_';
}

/*
 * Appends s[0..len) to out without what differs between two runs of the
 * same report: function offsets ("+0x2a/0x40"), addresses (12 or more hex
 * digits, with or without 0x), CPU numbers ("CPU: 0 PID: 1 " goes, "CPU#1"
 * and "cpu 1" become "CPU#N" and "cpu N"), a task's PID ("[comm:27]",
 * "task comm:27 blocked"), seconds stuck ("22s!") and a count of leaks.
 */
static void normalise(struct strbuf *out, const char *s, size_t len)
{
	const char *p = s, *end = s + len;

	while (p < end) {
		size_t n;

		if (*p == '+' && p + 3 < end && p[1] == '0' && p[2] == 'x') {
			/* func+0x2a/0x40 */
			const char *q = p + 3 + hex_run(p + 3, end);

			if (q > p + 3 && q + 2 < end && q[0] == '/' && q[1] == '0' && q[2] == 'x') {
				p = q + 3 + hex_run(q + 3, end);
				continue;
			}
		}
		if ((p == s || !word_char((unsigned char)p[-1]))) {
			size_t skip = (p + 1 < end && p[0] == '0' && p[1] == 'x') ? 2 : 0;

			n = hex_run(p + skip, end);
			if (n >= 12 && (p + skip + n == end || !word_char((unsigned char)p[skip + n]))) {
				strbuf_addstr(out, "ADDR");
				p += skip + n;
				continue;
			}
		}
		if (starts(p, (size_t)(end - p), "CPU: ") && (p == s || p[-1] == ' ')) {
			/* "CPU: 0 PID: 1 at": who hit it, not what */
			const char *q = p + 5 + digit_run(p + 5, end);

			if (q > p + 5 && starts(q, (size_t)(end - q), " PID: ")) {
				q += 6;
				n = digit_run(q, end);
				if (n) {
					q += n;
					while (q < end && *q == ' ')
						q++;
					p = q;
					/* "WARNING: CPU: 0 PID: 1 at" -> "WARNING at" */
					if (out->len >= 2 && !strcmp(out->buf + out->len - 2, ": ")) {
						strbuf_setlen(out, out->len - 2);
						strbuf_addch(out, ' ');
					}
					continue;
				}
			}
		}
		if (starts(p, (size_t)(end - p), "CPU#") || starts(p, (size_t)(end - p), "cpu ") ||
		    starts(p, (size_t)(end - p), "CPU ")) {
			n = digit_run(p + 4, end);
			if (n) {
				strbuf_add(out, p, 4);
				strbuf_addch(out, 'N');
				p += 4 + n;
				continue;
			}
		}
		if (*p == ':' && p + 1 < end && isdigit((unsigned char)p[1])) {
			/* "[comm:27]" and "task comm:27 blocked": a PID */
			const char *q = p + 1 + digit_run(p + 1, end);

			if (q < end && (*q == ']' || starts(q, (size_t)(end - q), " blocked"))) {
				p = q;
				continue;
			}
		}
		if (isdigit((unsigned char)*p) && (p == s || p[-1] == ' ')) {
			/* "stuck for 22s!", "kmemleak: 3 new suspected" */
			const char *q = p + digit_run(p, end);

			if (starts(q, (size_t)(end - q), "s!") ||
			    starts(q, (size_t)(end - q), " new suspected")) {
				strbuf_addch(out, 'N');
				p = q;
				continue;
			}
		}
		strbuf_addch(out, *p++);
	}
}

static int lockdep_line(const char *s, size_t len)
{
	size_t i;

	if (!starts(s, len, "WARNING: ") && !starts(s, len, "BUG: ") && !starts(s, len, "INFO: "))
		return 0;
	for (i = 0; i < ARRAY_SIZE(lockdep_phrases); i++)
		if (contains(s, len, lockdep_phrases[i]))
			return 1;
	return 0;
}

static int kind_of(enum finding_kind *kind, const char *s, size_t len)
{
	if (lockdep_line(s, len))
		*kind = FINDING_LOCKDEP;
	else if (starts(s, len, "BUG: KASAN: "))
		*kind = FINDING_KASAN;
	else if (starts(s, len, "BUG: KFENCE: "))
		*kind = FINDING_KFENCE;
	else if (starts(s, len, "kmemleak: ") && contains(s, len, "new suspected memory leak"))
		*kind = FINDING_KMEMLEAK;
	else if (starts(s, len, "UBSAN: "))
		*kind = FINDING_UBSAN;
	else if (contains(s, len, "BUG: soft lockup"))
		*kind = FINDING_SOFT_LOCKUP;
	else if (contains(s, len, "Watchdog detected hard LOCKUP"))
		*kind = FINDING_HARD_LOCKUP;
	else if ((starts(s, len, "rcu: INFO: ") || starts(s, len, "INFO: rcu")) &&
		 contains(s, len, "stall"))
		*kind = FINDING_RCU_STALL;
	else if (starts(s, len, "INFO: task ") && contains(s, len, " blocked for more than "))
		*kind = FINDING_HUNG_TASK;
	else if (starts(s, len, "BUG: sleeping function called from invalid context") ||
		 starts(s, len, "BUG: scheduling while atomic") ||
		 starts(s, len, "BUG: workqueue leaked lock or atomic"))
		*kind = FINDING_ATOMIC_SLEEP;
	else if (starts(s, len, "BUG: kernel NULL pointer dereference") ||
		 starts(s, len, "BUG: unable to handle") || starts(s, len, "Oops: ") ||
		 starts(s, len, "Internal error: Oops") ||
		 starts(s, len, "general protection fault") ||
		 starts(s, len, "Unable to handle kernel ") || starts(s, len, "invalid opcode: "))
		*kind = FINDING_OOPS;
	else if (starts(s, len, "WARNING: "))
		*kind = FINDING_WARNING;
	else if (starts(s, len, "BUG: ") || starts(s, len, "kernel BUG at "))
		*kind = FINDING_BUG;
	else if (starts(s, len, "Kernel panic - not syncing"))
		*kind = FINDING_PANIC;
	else
		return 0;
	return 1;
}

int findings_classify_line(enum finding_kind *kind, struct strbuf *norm, const char *line,
			   size_t len)
{
	const char *s = strip_prefix(line, &len);
	size_t cut = len;

	if (!kind_of(kind, s, len))
		return 0;
	/* "BUG: scheduling while atomic: swapper/0/1/0x00000002": who, not what */
	if (starts(s, len, "BUG: scheduling while atomic"))
		cut = strlen("BUG: scheduling while atomic");
	normalise(norm, s, cut);
	return 1;
}

void findings_release(struct findings *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr; i++) {
		free(f->v[i].line);
		free(f->v[i].text);
	}
	free(f->v);
	f->v = NULL;
	f->nr = f->alloc = 0;
}

static struct finding *find(struct findings *f, enum finding_kind kind, const char *line)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (f->v[i].kind == kind && !strcmp(f->v[i].line, line))
			return &f->v[i];
	return NULL;
}

/* A report's end: the kernel's "---[ end trace ...]---" and "---[ end Kernel panic". */
static int end_line(const char *s, size_t len)
{
	s = strip_prefix(s, &len);
	return starts(s, len, "---[ end ");
}

/* Gives the report being collected to its finding. */
static void finish_text(struct findings *out, struct strbuf **text, size_t owner)
{
	if (!*text)
		return;
	out->v[owner].text = strbuf_detach(*text, NULL);
	free(*text);
	*text = NULL;
}

void findings_scan(struct findings *out, const char *console, size_t len)
{
	const char *p = console, *end = console + len;
	struct strbuf norm = STRBUF_INIT;
	struct strbuf *text = NULL;	/* the report being collected, or NULL */
	size_t owner = 0, text_lines = 0, since = SIZE_MAX;
	enum finding_kind last = FINDING_PANIC;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		enum finding_kind kind;

		if (n && p[n - 1] == '\r')
			n--;
		strbuf_setlen(&norm, 0);
		if (findings_classify_line(&kind, &norm, p, n) &&
		    !(kind == FINDING_OOPS && since < FOLD_LINES &&
		      (last == FINDING_OOPS || last == FINDING_BUG))) {
			struct finding *f = find(out, kind, norm.buf);

			finish_text(out, &text, owner);
			if (f) {
				f->count++;
			} else {
				ALLOC_GROW(out->v, out->nr + 1, out->alloc);
				owner = out->nr++;
				f = &out->v[owner];
				f->kind = kind;
				f->line = xstrdup(norm.buf);
				f->text = NULL;
				f->count = 1;
				text = xmalloc(sizeof(*text));
				strbuf_init(text, 0);
				text_lines = 0;
			}
			last = kind;
			since = 0;
		} else if (since != SIZE_MAX) {
			since++;
		}
		if (text) {
			if (text->len + n + 1 <= FINDINGS_TEXT_MAX) {
				strbuf_add(text, p, n);
				strbuf_addch(text, '\n');
			}
			text_lines++;
			if (end_line(p, n) || text_lines >= FINDINGS_TEXT_LINES)
				finish_text(out, &text, owner);
		}
		p = nl ? nl + 1 : end;
	}
	finish_text(out, &text, owner);
	strbuf_release(&norm);
}
