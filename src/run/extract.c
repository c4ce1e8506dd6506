/* extract.c: take a number out of a program's output (--extract), as a sample of its run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/extract.h"
#include "run/protocol.h"
#include "store/metric.h"
#include "util/json.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* Pushes the n bytes at s as one string. */
static void push_n(struct strvec *sv, const char *s, size_t n)
{
	char *copy = xstrndup(s, n);

	strvec_push(sv, copy);
	free(copy);
}

static const char extract_form[] = "NAME,UNIT,higher|lower,re:REGEX|csv:FIELD|json:KEY";

void extract_release(struct extract *x)
{
	struct extract blank = EXTRACT_INIT;

	if (!x)
		return;
	if (x->kind == EXTRACT_RE && x->source)
		regfree(&x->re);
	free(x->spec);
	free(x->metric);
	free(x->unit);
	free(x->source);
	*x = blank;
}

static int valid_name(const char *s)
{
	if (!(*s >= 'a' && *s <= 'z'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

static int valid_unit(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f || strchr("\"'\\,=", *s))
			return 0;
	return 1;
}

/* Compiles x->source; 0 or -1 with an error naming the argument. */
static int compile(struct extract *x, const char *arg)
{
	char msg[256];
	int rc = regcomp(&x->re, x->source, REG_EXTENDED);

	if (rc) {
		regerror(rc, &x->re, msg, sizeof(msg));
		regfree(&x->re);
		return error("--extract '%s': bad regular expression '%s': %s", arg, x->source,
			     msg);
	}
	if (x->re.re_nsub < 1) {
		regfree(&x->re);
		return error("--extract '%s': the regular expression '%s' has no group: put "
			     "the number in ( )", arg, x->source);
	}
	return 0;
}

static int parse_source(struct extract *x, const char *arg, const char *src)
{
	const char *rest;

	if (skip_prefix(src, "re:", &rest)) {
		x->kind = EXTRACT_RE;
		if (!*rest)
			return error("--extract '%s': re: needs a regular expression", arg);
		x->source = xstrdup(rest);
		if (compile(x, arg)) {
			free(x->source);
			x->source = NULL;
			return -1;
		}
		return 0;
	}
	if (skip_prefix(src, "csv:", &rest)) {
		char *end;
		unsigned long n;

		if (!*rest)
			return error("--extract '%s': csv: needs a field number or name", arg);
		x->source = xstrdup(rest);
		n = strtoul(rest, &end, 10);
		if (*rest >= '0' && *rest <= '9' && !*end) {
			if (n < 1 || n > 10000)
				return error("--extract '%s': csv field %s is not from 1 to 10000",
					     arg, rest);
			x->kind = EXTRACT_CSV_INDEX;
			x->field = (unsigned)n;
		} else {
			x->kind = EXTRACT_CSV_NAME;
		}
		return 0;
	}
	if (skip_prefix(src, "json:", &rest)) {
		if (!*rest || rest[0] == '.' || rest[strlen(rest) - 1] == '.' || strstr(rest, ".."))
			return error("--extract '%s': json: needs a key (a.b.c for nested objects)",
				     arg);
		x->kind = EXTRACT_JSON;
		x->source = xstrdup(rest);
		return 0;
	}
	return error("--extract '%s': '%s' is not re:REGEX, csv:FIELD or json:KEY", arg, src);
}

int extract_parse(struct extract *out, const char *arg)
{
	struct strvec parts = STRVEC_INIT;
	const char *p = arg;
	int i, ret = -1;

	/* NAME, UNIT and the direction end at a comma; SOURCE is the rest */
	for (i = 0; i < 3; i++) {
		const char *comma = strchr(p, ',');

		if (!comma) {
			error("--extract '%s' is not %s", arg, extract_form);
			goto out;
		}
		push_n(&parts, p, (size_t)(comma - p));
		p = comma + 1;
	}
	if (!valid_name(parts.v[0]) || strlen(parts.v[0]) > EXTRACT_NAME_MAX ||
	    !strcmp(parts.v[0], "time") || metric_is_every_runs(parts.v[0])) {
		error("--extract '%s': '%s' is not a metric name: lowercase letters, digits and "
		      "'_', up to %d, not time, wall or boot (the run has those already)",
		      arg, parts.v[0], EXTRACT_NAME_MAX);
		goto out;
	}
	if (!valid_unit(parts.v[1]) || strlen(parts.v[1]) > EXTRACT_UNIT_MAX) {
		error("--extract '%s': '%s' is not a unit (up to %d characters without blanks, "
		      "quotes, commas or '=', such as MB/s)", arg, parts.v[1], EXTRACT_UNIT_MAX);
		goto out;
	}
	if (strcmp(parts.v[2], "higher") && strcmp(parts.v[2], "lower")) {
		error("--extract '%s': '%s' is not higher or lower (which is better)", arg,
		      parts.v[2]);
		goto out;
	}
	if (parse_source(out, arg, p))
		goto out;
	out->spec = xstrdup(arg);
	out->metric = xstrdup(parts.v[0]);
	out->unit = xstrdup(parts.v[1]);
	out->higher_is_better = !strcmp(parts.v[2], "higher");
	ret = 0;
out:
	if (ret)
		extract_release(out);
	strvec_clear(&parts);
	return ret;
}

/* The lines of the output, without their "\r\n" or "\n" (an empty last line is not one). */
static void split_lines(struct strvec *out, const char *text, size_t len)
{
	size_t start = 0, i;

	for (i = 0; i <= len; i++) {
		size_t end = i;

		if (i < len && text[i] != '\n')
			continue;
		if (i == len && start == len)
			break;
		if (end > start && text[end - 1] == '\r')
			end--;
		push_n(out, text + start, end - start);
		start = i + 1;
	}
}

static void add_last_line(struct strbuf *why, const struct strvec *lines)
{
	size_t i = lines->nr;

	while (i && !*lines->v[i - 1])
		i--;
	strbuf_addf(why, " (%zu line%s", lines->nr, lines->nr == 1 ? "" : "s");
	if (i) {
		const char *l = lines->v[i - 1];
		size_t n = strlen(l);

		if (n > 120)
			strbuf_addf(why, "; the last: '%.117s...'", l);
		else
			strbuf_addf(why, "; the last: '%s'", l);
	}
	strbuf_addch(why, ')');
}

/* A whole decimal number, blanks around it allowed. */
static int parse_number(const char *s, size_t len, double *out, struct strbuf *why)
{
	char *text = xstrndup(s, len), *p = text, *end;
	size_t n;
	int ret = -1;

	while (*p == ' ' || *p == '\t')
		p++;
	n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		p[--n] = '\0';
	if (!*p || strpbrk(p, "xXpPiInN")) {
		strbuf_addf(why, "'%s' is not a number", p);
		goto out;
	}
	*out = strtod(p, &end);
	if (*end || end == p || !isfinite(*out)) {
		strbuf_addf(why, "'%s' is not a number", p);
		goto out;
	}
	ret = 0;
out:
	free(text);
	return ret;
}

static int apply_re(const struct extract *x, const struct strvec *lines, double *value,
		    struct strbuf *why)
{
	regmatch_t m[2];
	size_t i;

	for (i = lines->nr; i-- > 0;) {
		if (regexec(&x->re, lines->v[i], 2, m, 0))
			continue;
		if (m[1].rm_so < 0) {
			strbuf_addf(why, "the group of re:%s matched nothing in '%s'", x->source,
				    lines->v[i]);
			return -1;
		}
		return parse_number(lines->v[i] + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so),
				    value, why);
	}
	strbuf_addf(why, "no line matches re:%s", x->source);
	add_last_line(why, lines);
	return -1;
}

static void split_fields(struct strvec *out, const char *line)
{
	/* by hand: bonnie++ leaves many fields empty, and they count */
	strvec_clear(out);
	for (;;) {
		const char *comma = strchr(line, ',');
		size_t n = comma ? (size_t)(comma - line) : strlen(line);

		push_n(out, line, n);
		if (!comma)
			break;
		line = comma + 1;
	}
}

static int field_is(const char *field, const char *name)
{
	size_t n = strlen(name);

	while (*field == ' ' || *field == '\t' || *field == '"')
		field++;
	if (strncmp(field, name, n))
		return 0;
	field += n;
	while (*field == ' ' || *field == '\t' || *field == '"')
		field++;
	return !*field;
}

static int apply_csv(const struct extract *x, const struct strvec *lines, double *value,
		     struct strbuf *why)
{
	struct strvec f = STRVEC_INIT;
	size_t i, col = 0, header = SIZE_MAX, nf = 0;
	int ret = -1;

	if (x->kind == EXTRACT_CSV_NAME) {
		for (i = lines->nr; i-- > 0 && header == SIZE_MAX;) {
			size_t j;

			split_fields(&f, lines->v[i]);
			for (j = 0; j < f.nr; j++)
				if (field_is(f.v[j], x->source)) {
					header = i;
					col = j;
					nf = f.nr;
					break;
				}
		}
		if (header == SIZE_MAX) {
			strbuf_addf(why, "no line has a field '%s' (csv:%s)", x->source, x->source);
			add_last_line(why, lines);
			goto out;
		}
		for (i = lines->nr; i-- > header + 1;) {
			split_fields(&f, lines->v[i]);
			if (f.nr == nf) {
				ret = parse_number(f.v[col], strlen(f.v[col]), value, why);
				if (ret)
					strbuf_addf(why, " (csv:%s, line %zu)", x->source, i + 1);
				goto out;
			}
		}
		strbuf_addf(why, "no line after the header (line %zu) has its %zu fields (csv:%s)",
			    header + 1, nf, x->source);
		goto out;
	}
	for (i = lines->nr; i-- > 0;) {
		split_fields(&f, lines->v[i]);
		if (f.nr >= x->field && f.nr > 1) {
			ret = parse_number(f.v[x->field - 1], strlen(f.v[x->field - 1]), value, why);
			if (ret)
				strbuf_addf(why, " (csv:%u, line %zu)", x->field, i + 1);
			goto out;
		}
	}
	strbuf_addf(why, "no line has %u or more comma-separated fields (csv:%u)", x->field,
		    x->field);
	add_last_line(why, lines);
out:
	strvec_clear(&f);
	return ret;
}

static int apply_json(const struct extract *x, const struct strvec *lines, double *value,
		      struct strbuf *why)
{
	struct strvec path = STRVEC_INIT;
	struct json *root = NULL;
	const struct json *j;
	struct json_error err;
	size_t i, k;
	int ret = -1;

	for (i = lines->nr; i-- > 0;) {
		const char *l = lines->v[i];

		while (*l == ' ' || *l == '\t')
			l++;
		if (*l != '{')
			continue;
		if (!json_parse(&root, l, strlen(l), &err) && root->type == JSON_OBJECT)
			break;
		json_free(root);
		root = NULL;
	}
	if (!root) {
		strbuf_addf(why, "no line is a JSON object (json:%s)", x->source);
		add_last_line(why, lines);
		goto out;
	}
	strvec_split(&path, x->source, ".");
	j = root;
	for (k = 0; k < path.nr && j; k++)
		j = j->type == JSON_OBJECT ? json_get(j, path.v[k]) : NULL;
	if (!j) {
		strbuf_addf(why, "the last JSON line (line %zu) has no %s", i + 1, x->source);
		goto out;
	}
	if (j->type == JSON_NUMBER) {
		*value = j->number;
		ret = 0;
	} else if (j->type == JSON_STRING) {
		ret = parse_number(j->string, j->len, value, why);
		if (ret)
			strbuf_addf(why, " (json:%s, line %zu)", x->source, i + 1);
	} else {
		strbuf_addf(why, "json:%s is %s, not a number (line %zu)", x->source,
			    json_type_name(j->type), i + 1);
	}
out:
	json_free(root);
	strvec_clear(&path);
	return ret;
}

int extract_apply(const struct extract *x, const char *output, size_t len, double *value,
		  struct strbuf *why)
{
	struct strvec lines = STRVEC_INIT;
	int ret;

	split_lines(&lines, output, len);
	switch (x->kind) {
	case EXTRACT_RE:
		ret = apply_re(x, &lines, value, why);
		break;
	case EXTRACT_CSV_INDEX:
	case EXTRACT_CSV_NAME:
		ret = apply_csv(x, &lines, value, why);
		break;
	case EXTRACT_JSON:
		ret = apply_json(x, &lines, value, why);
		break;
	default:
		BUG("unknown extract kind %d", x->kind);
	}
	strvec_clear(&lines);
	return ret;
}

/* guest/cmd.c send_output()'s note, with the count of bytes it left out between. */
#define CUT_NOTE_HEAD "[kcp-guest: the first "
#define CUT_NOTE_TAIL " bytes of the output are left out]\n"

size_t extract_skip_cut(const char *output, size_t len, long long *cut)
{
	size_t head = strlen(CUT_NOTE_HEAD), tail = strlen(CUT_NOTE_TAIL), n = 0, at;
	const char *nl;
	long long v = 0;

	*cut = 0;
	if (len < head || memcmp(output, CUT_NOTE_HEAD, head))
		return 0;
	while (head + n < len && n < 19 && output[head + n] >= '0' && output[head + n] <= '9')
		v = v * 10 + (output[head + n++] - '0');
	if (!n || head + n + tail > len || memcmp(output + head + n, CUT_NOTE_TAIL, tail))
		return 0;
	*cut = v;
	at = head + n + tail;
	/* The guest cut at an arbitrary byte: the first line is only the end of one. */
	nl = memchr(output + at, '\n', len - at);
	return nl ? (size_t)(nl - output) + 1 : len;
}

int extract_samples(struct protocol_result *r, const char *workload,
		    const struct extract *x, size_t nr, const char *output, size_t len,
		    struct strbuf *why)
{
	double *values = xcalloc(nr ? nr : 1, sizeof(*values));
	long long cut;
	size_t i, start = extract_skip_cut(output, len, &cut);
	int ret = -1;

	for (i = 0; i < nr; i++) {
		struct strbuf msg = STRBUF_INIT;
		int rc = extract_apply(&x[i], output + start, len - start, &values[i], &msg);

		if (rc) {
			strbuf_addf(why, "--extract %s: %s", x[i].metric, msg.buf);
			if (cut)
				strbuf_addf(why, "; the guest kept only the output's last 64 KiB: "
					    "the first %lld bytes are left out", cut);
		}
		strbuf_release(&msg);
		if (rc)
			goto out;
	}
	for (i = 0; i < nr; i++) {
		struct protocol_sample *s;

		ALLOC_GROW(r->samples, r->nr_samples + 1, r->alloc_samples);
		s = &r->samples[r->nr_samples++];
		memset(s, 0, sizeof(*s));
		s->workload = xstrdup(workload);
		s->iteration = 0;
		s->metric = xstrdup(x[i].metric);
		s->unit = xstrdup(x[i].unit);
		s->value = values[i];
		s->higher_is_better = x[i].higher_is_better;
	}
	ret = 0;
out:
	free(values);
	return ret;
}
