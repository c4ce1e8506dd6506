/* protocol.c: parse the KCP line protocol that kcp-guest and runners write. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "run/protocol.h"
#include "store/sample-range.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* A KCP line has few fields; more than this is garbage, not a line to trust. */
#define MAX_FIELDS 32
/* How much of a bad line an error message quotes. */
#define EXCERPT_MAX 120

struct field {
	const char *key;
	const char *value;
};

struct line {
	char *kind;
	struct field fields[MAX_FIELDS];
	int nr;
};

void protocol_result_init(struct protocol_result *r)
{
	struct protocol_result blank = PROTOCOL_RESULT_INIT;

	*r = blank;
}

void protocol_result_release(struct protocol_result *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_samples; i++) {
		free(r->samples[i].workload);
		free(r->samples[i].metric);
		free(r->samples[i].unit);
	}
	free(r->samples);
	free(r->clocksource);
	free(r->error);
	free(r->invalid);
	free(r->metric_first);
	free(r->seen);
	protocol_result_init(r);
}

/*
 * Splits buf (a copy of the line after "KCP <version> ", modified in place)
 * into kind and key=value fields, unquoting values.  Returns NULL, or a
 * static reason with *at set to the field it is about.
 */
static const char *split_fields(char *buf, struct line *out, const char **at)
{
	char *s = buf;

	out->nr = 0;
	out->kind = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (s == out->kind)
		return "no kind after the version";
	if (*s)
		*s++ = '\0';
	for (;;) {
		struct field *f;
		char *w;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return NULL;
		if (out->nr == MAX_FIELDS)
			return "too many fields";
		f = &out->fields[out->nr++];
		f->key = *at = s;
		while ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')
			s++;
		if (s == f->key || *s != '=')
			return "expected key=value";
		*s++ = '\0';
		f->value = w = s;
		if (*s != '"') {
			while (*s && *s != ' ' && *s != '\t') {
				if (*s == '"')
					return "quote inside a bare value";
				s++;
			}
			if (*s)
				*s++ = '\0';
			continue;
		}
		s++;
		for (;;) {
			if (!*s)
				return "unterminated quoted value";
			if (*s == '"')
				break;
			if (*s == '\\') {
				if (s[1] != '"' && s[1] != '\\')
					return "bad escape in a quoted value (only \\\" and \\\\)";
				s++;
			}
			*w++ = *s++;
		}
		s++;
		if (*s && *s != ' ' && *s != '\t')
			return "text after a closing quote";
		*w = '\0';
	}
}

/* The value of key, or NULL; a key given twice is reported by check_dups(). */
static const char *get(const struct line *l, const char *key)
{
	int i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->fields[i].key, key))
			return l->fields[i].value;
	return NULL;
}

static const char *check_dups(const struct line *l)
{
	int i, j;

	for (i = 0; i < l->nr; i++)
		for (j = i + 1; j < l->nr; j++)
			if (!strcmp(l->fields[i].key, l->fields[j].key))
				return l->fields[i].key;
	return NULL;
}

/* Strict decimal: [-]digits[.digits][(e|E)[+-]digits], finite. */
static int parse_number(const char *s, double *out)
{
	const char *p = s;
	char *end;
	int digits = 0;

	if (*p == '-')
		p++;
	while (*p >= '0' && *p <= '9')
		p++, digits++;
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9')
			p++, digits++;
	}
	if (!digits)
		return -1;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (*end || !isfinite(*out) || errno == ERANGE)
		return -1;
	return 0;
}

static int parse_uint(const char *s, unsigned *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 0xffffffffUL)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/*
 * Reports a malformed line: counts it and keeps the first one's message in
 * r->invalid.  Returns -1.
 */
static int malformed(struct protocol_result *r, const char *origin, unsigned lineno,
		     const char *line, size_t len, const char *fmt, ...)
	__attribute__((__format__(__printf__, 6, 7)));

static int malformed(struct protocol_result *r, const char *origin, unsigned lineno,
		     const char *line, size_t len, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	size_t i;

	if (r->nr_invalid++)
		return -1;
	strbuf_addf(&msg, "%s:%u: ", origin, lineno);
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	strbuf_addstr(&msg, " in '");
	for (i = 0; i < len && i < EXCERPT_MAX; i++)
		strbuf_addch(&msg, (unsigned char)line[i] < ' ' ? '?' : line[i]);
	strbuf_addstr(&msg, i < len ? "...'" : "'");
	r->invalid = strbuf_detach(&msg, NULL);
	return -1;
}

#define BAD(...) malformed(r, origin, lineno, line, len, __VA_ARGS__)

/* The metric's index among r's metrics, or r->nr_metrics when it is new. */
static size_t find_metric(const struct protocol_result *r, const char *metric)
{
	size_t i;

	for (i = 0; i < r->nr_metrics; i++)
		if (!strcmp(r->samples[r->metric_first[i]].metric, metric))
			return i;
	return i;
}

static size_t seen_slot(const struct protocol_result *r, unsigned long long key)
{
	/* a 64-bit mix (splitmix64's finalizer), then linear probing */
	unsigned long long h = key;

	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return (size_t)h & (r->seen_size - 1);
}

/* Adds (metric, iter) to the set; 0 when new, 1 when it was there. */
static int seen_add(struct protocol_result *r, size_t metric, unsigned iter)
{
	unsigned long long key = ((unsigned long long)metric << 32 | iter) + 1;
	size_t i;

	if (2 * (r->nr_seen + 1) > r->seen_size) {
		unsigned long long *old = r->seen;
		size_t old_size = r->seen_size, k;

		r->seen_size = old_size ? 2 * old_size : 64;
		r->seen = xcalloc(r->seen_size, sizeof(*r->seen));
		for (k = 0; k < old_size; k++) {
			if (!old[k])
				continue;
			for (i = seen_slot(r, old[k]); r->seen[i]; i = (i + 1) & (r->seen_size - 1))
				;
			r->seen[i] = old[k];
		}
		free(old);
	}
	for (i = seen_slot(r, key); r->seen[i]; i = (i + 1) & (r->seen_size - 1))
		if (r->seen[i] == key)
			return 1;
	r->seen[i] = key;
	r->nr_seen++;
	return 0;
}

static int take_sample(struct protocol_result *r, const struct line *l,
		       const char *origin, unsigned lineno, const char *line, size_t len)
{
	static const char *const required[] = {
		"workload", "iter", "metric", "unit", "better", "value",
	};
	struct protocol_sample s;
	const char *better, *why;
	size_t i, metric;

	for (i = 0; i < ARRAY_SIZE(required); i++) {
		const char *v = get(l, required[i]);

		if (!v)
			return BAD("sample without '%s='", required[i]);
		if (!*v)
			return BAD("empty '%s='", required[i]);
	}
	if (parse_uint(get(l, "iter"), &s.iteration))
		return BAD("bad iteration number '%s'", get(l, "iter"));
	if (parse_number(get(l, "value"), &s.value))
		return BAD("bad number '%s' for value", get(l, "value"));
	if (s.value < 0)
		return BAD("negative value '%s' for a %s", get(l, "value"), get(l, "metric"));
	why = sample_range_check(s.value, get(l, "unit"));
	if (why)
		return BAD("value=%s %s %s, which %s", get(l, "value"), get(l, "unit"),
			   get(l, "metric"), why);
	s.per = 1;
	if (get(l, "per") && (parse_number(get(l, "per"), &s.per) || !(s.per >= 1)))
		return BAD("per='%s' is not a count of 1 or more", get(l, "per"));
	if (r->workload && strcmp(get(l, "workload"), r->workload))
		return BAD("a sample of workload '%s', but this run is of '%s'",
			   get(l, "workload"), r->workload);
	better = get(l, "better");
	if (!strcmp(better, "lower"))
		s.higher_is_better = 0;
	else if (!strcmp(better, "higher"))
		s.higher_is_better = 1;
	else
		return BAD("better='%s' is not lower or higher", better);
	metric = find_metric(r, get(l, "metric"));
	if (metric < r->nr_metrics) {
		/* The first sample of a metric fixes its unit and direction. */
		const struct protocol_sample *first = &r->samples[r->metric_first[metric]];

		if (strcmp(first->unit, get(l, "unit")) ||
		    first->higher_is_better != s.higher_is_better)
			return BAD("metric '%s' with unit=%s better=%s, but its first sample "
				   "had unit=%s better=%s", first->metric, get(l, "unit"), better,
				   first->unit, first->higher_is_better ? "higher" : "lower");
	} else if (r->nr_metrics >= KCP_METRICS_MAX) {
		r->capped = 1;
		return BAD("more than %d metrics", KCP_METRICS_MAX);
	}
	if (r->nr_samples >= KCP_SAMPLES_MAX) {
		r->capped = 1;
		return BAD("more than %d samples", KCP_SAMPLES_MAX);
	}
	if (seen_add(r, metric, s.iteration))
		return BAD("a second sample for metric '%s' iter=%u",
			   get(l, "metric"), s.iteration);
	if (metric == r->nr_metrics) {
		ALLOC_GROW(r->metric_first, r->nr_metrics + 1, r->alloc_metrics);
		r->metric_first[r->nr_metrics++] = r->nr_samples;
	}

	s.workload = xstrdup(get(l, "workload"));
	s.metric = xstrdup(get(l, "metric"));
	s.unit = xstrdup(get(l, "unit"));
	ALLOC_GROW(r->samples, r->nr_samples + 1, r->alloc_samples);
	r->samples[r->nr_samples++] = s;
	return 1;
}

int protocol_parse_line(struct protocol_result *r, const char *line, size_t len,
			const char *origin, unsigned lineno)
{
	struct strbuf copy = STRBUF_INIT;
	struct line l;
	const char *why, *dup, *at = NULL;
	char *rest;
	unsigned version;
	int ret = 1;

	if (len && line[len - 1] == '\r')
		len--;
	if (len < strlen(KCP_PROTOCOL_PREFIX) ||
	    memcmp(line, KCP_PROTOCOL_PREFIX, strlen(KCP_PROTOCOL_PREFIX)))
		return 0;
	if (len > KCP_LINE_MAX)
		return BAD("line longer than %d bytes", KCP_LINE_MAX);
	if (memchr(line, '\0', len))
		return BAD("NUL byte");

	strbuf_add(&copy, line + strlen(KCP_PROTOCOL_PREFIX), len - strlen(KCP_PROTOCOL_PREFIX));
	rest = copy.buf;
	{
		/* the version: digits up to a space */
		size_t n = strspn(rest, "0123456789");
		char vbuf[16];

		if (!n || n >= sizeof(vbuf) || (rest[n] != ' ' && rest[n] != '\t')) {
			ret = BAD("no protocol version after 'KCP'");
			goto out;
		}
		memcpy(vbuf, rest, n);
		vbuf[n] = '\0';
		if (parse_uint(vbuf, &version) || version != KCP_PROTOCOL_VERSION) {
			ret = BAD("protocol version %s, but this kconfperf reads version %d",
				  vbuf, KCP_PROTOCOL_VERSION);
			goto out;
		}
		rest += n + 1;
	}
	why = split_fields(rest, &l, &at);
	if (why) {
		if (at)
			ret = BAD("%s at '%.*s'", why, (int)strcspn(at, " \t"), at);
		else
			ret = BAD("%s", why);
		goto out;
	}
	dup = check_dups(&l);
	if (dup) {
		ret = BAD("'%s=' given twice", dup);
		goto out;
	}
	if (r->done || r->error) {
		ret = BAD("'%s' after the run's '%s' line", l.kind, r->error ? "error" : "done");
		goto out;
	}

	if (!strcmp(l.kind, "ready")) {
		const char *boot = get(&l, "boot_s"), *workload = get(&l, "workload");
		double v;

		if (r->ready)
			ret = BAD("a second ready line");
		else if (r->nr_samples)
			ret = BAD("ready after samples");
		else if (!boot)
			ret = BAD("ready without 'boot_s='");
		else if (parse_number(boot, &v) || v < 0)
			ret = BAD("bad number '%s' for boot_s", boot);
		else if (workload && r->workload && strcmp(workload, r->workload))
			ret = BAD("ready for workload '%s', but this run is of '%s'", workload,
				  r->workload);
		else {
			const char *cs = get(&l, "clocksource");

			r->ready = 1;
			r->boot_seconds = v;
			if (cs && !r->clocksource)
				r->clocksource = xstrdup(cs);
		}
	} else if (!strcmp(l.kind, "sample")) {
		ret = take_sample(r, &l, origin, lineno, line, len);
	} else if (!strcmp(l.kind, "done")) {
		r->done = 1;
	} else if (!strcmp(l.kind, "error")) {
		const char *msg = get(&l, "msg");

		if (!msg)
			ret = BAD("error without 'msg='");
		else
			r->error = xstrdup(*msg ? msg : "(no message)");
	} else {
		ret = BAD("unknown kind '%s' (ready, sample, done or error)", l.kind);
	}
out:
	strbuf_release(&copy);
	return ret;
}

int protocol_parse_buffer(struct protocol_result *r, const char *buf, size_t len,
			  const char *origin)
{
	const char *end = buf + len;
	int ret = 0;

	while (buf < end && !r->capped) {
		const char *nl = memchr(buf, '\n', end - buf);
		size_t n = nl ? (size_t)(nl - buf) : (size_t)(end - buf);

		r->lines++;
		if (protocol_parse_line(r, buf, n, origin, r->lines) < 0)
			ret = -1;
		buf += n + (nl != NULL);
	}
	return ret;
}

int protocol_result_complete(const struct protocol_result *r, struct strbuf *why)
{
	if (r->done && !r->error && !r->invalid)
		return 1;
	if (!why)
		return 0;
	if (r->error)
		strbuf_addf(why, "guest error: %s", r->error);
	else if (r->invalid)
		protocol_add_invalid(why, r);
	else if (r->nr_samples)
		strbuf_addf(why, "no 'done' line (last sample iter=%u)",
			    r->samples[r->nr_samples - 1].iteration);
	else if (r->ready)
		strbuf_addstr(why, "no 'done' line (ready, no samples)");
	else
		strbuf_addstr(why, "no output");
	return 0;
}

void protocol_add_invalid(struct strbuf *sb, const struct protocol_result *r)
{
	if (!r->invalid)
		return;
	strbuf_addf(sb, "malformed output: %s", r->invalid);
	if (r->nr_invalid > 1)
		strbuf_addf(sb, " (and %u more malformed line%s)", r->nr_invalid - 1,
			    r->nr_invalid == 2 ? "" : "s");
}

void protocol_quote(struct strbuf *sb, const char *msg)
{
	strbuf_addch(sb, '"');
	for (; *msg; msg++) {
		unsigned char c = *msg;

		if (c == '"' || c == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, c < ' ' || c == 0x7f ? '?' : c);
	}
	strbuf_addch(sb, '"');
}
