/* workload-table.c: the workload tables from workloads.def and parameter value checks. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/workload-table.h"

#define BETTER_LOWER 0
#define BETTER_HIGHER 1

const struct workload_info workload_table[NR_WORKLOADS] = {
#define WORKLOAD(id, metric, unit, better, flags, profile, summary) \
	[WORKLOAD_##id] = { #id, metric, unit, BETTER_##better, flags, profile, summary },
#define PARAM(id, name, type, def, min, max, choices, help)
#include "run/workloads.def"
#undef WORKLOAD
#undef PARAM
};

const struct workload_param workload_params[] = {
#define WORKLOAD(id, metric, unit, better, flags, profile, summary)
#define PARAM(id, name, type, def, min, max, choices, help) \
	{ WORKLOAD_##id, name, WP_##type, def, min, max, choices, help },
#include "run/workloads.def"
#undef WORKLOAD
#undef PARAM
};

const size_t nr_workload_params = sizeof(workload_params) / sizeof(workload_params[0]);

int workload_find(const char *name)
{
	int i;

	for (i = 0; i < NR_WORKLOADS; i++)
		if (!strcmp(workload_table[i].name, name))
			return i;
	return -1;
}

const struct workload_param *workload_param_find(int id, const char *name)
{
	size_t i;

	for (i = 0; i < nr_workload_params; i++)
		if ((int)workload_params[i].workload == id &&
		    !strcmp(workload_params[i].name, name))
			return &workload_params[i];
	return NULL;
}

/* Writes "'value' is not a or b or c" for a choice list "a|b|c". */
static void choice_reason(const struct workload_param *p, const char *value,
			  char *why, size_t size)
{
	const char *c = p->choices;
	size_t used;

	snprintf(why, size, "'%s' is not ", value);
	used = strlen(why);
	while (*c && used + 1 < size) {
		const char *bar = strchr(c, '|');
		size_t n = bar ? (size_t)(bar - c) : strlen(c);

		snprintf(why + used, size - used, "%s%.*s",
			 c == p->choices ? "" : bar ? ", " : " or ", (int)n, c);
		used = strlen(why);
		c += n + (bar != NULL);
	}
}

static int check_choice(const struct workload_param *p, const char *value,
			char *why, size_t size)
{
	size_t len = strlen(value);
	const char *c = p->choices;

	while (*c) {
		const char *bar = strchr(c, '|');
		size_t n = bar ? (size_t)(bar - c) : strlen(c);

		if (n == len && !strncmp(c, value, n))
			return 0;
		c += n + (bar != NULL);
	}
	choice_reason(p, value, why, size);
	return -1;
}

static int check_path(const char *value, char *why, size_t size)
{
	const char *s;

	if (value[0] != '/') {
		snprintf(why, size, "'%s' is not an absolute path", value);
		return -1;
	}
	if (strlen(value) > WORKLOAD_VALUE_MAX) {
		snprintf(why, size, "path is longer than %d bytes", WORKLOAD_VALUE_MAX);
		return -1;
	}
	for (s = value; *s; s++) {
		unsigned char c = *s;

		if (c <= ' ' || c >= 0x7f || c == '"' || c == '\'' || c == ',' ||
		    c == '\\' || c == '=') {
			snprintf(why, size, "'%s' contains a space, quote, comma, "
				 "'=', backslash or control character", value);
			return -1;
		}
	}
	return 0;
}

static int check_number(const struct workload_param *p, const char *value,
			unsigned long long *num, char *why, size_t size)
{
	unsigned long long v, mult = 1;
	int sized = p->type == WP_SIZE || p->type == WP_BLOCKS;
	const char *kind = sized ? "a size" : "a whole number";
	char *end;

	if (value[0] < '0' || value[0] > '9')
		goto bad;
	errno = 0;
	v = strtoull(value, &end, 10);
	if (errno)
		goto range;
	if (sized && *end) {
		switch (*end) {
		case 'k': case 'K': mult = 1ULL << 10; break;
		case 'm': case 'M': mult = 1ULL << 20; break;
		case 'g': case 'G': mult = 1ULL << 30; break;
		default: goto bad;
		}
		end++;
	}
	if (*end)
		goto bad;
	if (v > ~0ULL / mult)
		goto range;
	v *= mult;
	if (v < p->min || v > p->max)
		goto range;
	if (p->type == WP_BLOCKS && v % 512) {
		snprintf(why, size, "'%s' is not a multiple of 512 bytes", value);
		return -1;
	}
	if (num)
		*num = v;
	return 0;
bad:
	snprintf(why, size, "'%s' is not %s%s", value, kind,
		 sized ? " (bytes, with an optional K, M or G suffix)" : "");
	return -1;
range:
	snprintf(why, size, "'%s' is out of range (%llu to %llu)", value, p->min, p->max);
	return -1;
}

static int check_text(const char *value, char *why, size_t size)
{
	const unsigned char *s;

	if (strlen(value) > WORKLOAD_TEXT_MAX) {
		snprintf(why, size, "longer than %d bytes", WORKLOAD_TEXT_MAX);
		return -1;
	}
	for (s = (const unsigned char *)value; *s; s++) {
		if ((*s < ' ' && *s != '\t') || *s == 0x7f) {
			snprintf(why, size, "control character 0x%02x in '%s'", *s, value);
			return -1;
		}
	}
	return 0;
}

/* Bytes a TEXT value keeps as they are on the kernel command line. */
static int text_plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("/._-+:@,", c));
}

size_t workload_text_encode(char *out, size_t size, const char *text)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t len = 0, o = size ? strlen(out) : 0;
	const unsigned char *s;

	for (s = (const unsigned char *)text; *s; s++) {
		char enc[4] = { (char)*s, 0, 0, 0 };
		size_t n = 1;

		if (!text_plain(*s)) {
			enc[0] = '%';
			enc[1] = hex[*s >> 4];
			enc[2] = hex[*s & 15];
			n = 3;
		}
		len += n;
		if (size && o + n < size) {
			memcpy(out + o, enc, n);
			o += n;
			out[o] = '\0';
		}
	}
	return len;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int workload_text_decode(char *s)
{
	char *o = s;

	for (; *s; s++) {
		int hi, lo;

		if (*s != '%') {
			*o++ = *s;
			continue;
		}
		hi = hex_value(s[1]);
		lo = hi < 0 ? -1 : hex_value(s[2]);
		if (lo < 0)
			return -1;
		*o++ = (char)(hi << 4 | lo);
		s += 2;
	}
	*o = '\0';
	return 0;
}

int workload_command_needs_shell(const char *cmd)
{
	const char *s = cmd, *word;

	if (strpbrk(cmd, "\"'`$\\|&;<>()*?[]#~{}\n"))
		return 1;
	while (*s == ' ' || *s == '\t')
		s++;
	/* NAME=value as the first word is an assignment, which only a shell makes */
	word = s;
	if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_') {
		while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		       (*s >= '0' && *s <= '9') || *s == '_')
			s++;
		if (*s == '=' && s > word)
			return 1;
	}
	return 0;
}

int workload_param_check(const struct workload_param *p, const char *value,
			 unsigned long long *num, char *why, size_t size)
{
	if (num)
		*num = 0;
	switch (p->type) {
	case WP_COUNT:
	case WP_SIZE:
	case WP_BLOCKS:
		return check_number(p, value, num, why, size);
	case WP_CHOICE:
		return check_choice(p, value, why, size);
	case WP_PATH:
		return check_path(value, why, size);
	case WP_TEXT:
		return check_text(value, why, size);
	}
	snprintf(why, size, "parameter '%s' has an unknown type", p->name);
	return -1;
}
