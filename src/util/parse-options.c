/* parse-options.c: table-driven option parsing that also writes --help. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"

static int takes_arg(const struct option *o)
{
	return o->type != OPTION_BOOL;
}

static const char *opt_name(const struct option *o, char *buf, size_t size)
{
	if (o->long_name)
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
	return buf;
}

static int set_value(const struct option *o, const char *arg, int negate)
{
	char name[64];
	char *end;

	opt_name(o, name, sizeof(name));
	switch (o->type) {
	case OPTION_BOOL:
		*(int *)o->value = !negate;
		return 0;
	case OPTION_INTEGER: {
		long v;

		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v < INT_MIN || v > INT_MAX)
			return error("option '%s' expects an integer, not '%s'", name, arg);
		*(int *)o->value = (int)v;
		return 0;
	}
	case OPTION_DOUBLE: {
		double v;

		errno = 0;
		v = strtod(arg, &end);
		/* decimal only: strtod() would take 0x10 for 16 */
		if (errno || end == arg || *end || !isfinite(v) || strpbrk(arg, "xXpP"))
			return error("option '%s' expects a number, not '%s'", name, arg);
		*(double *)o->value = v;
		return 0;
	}
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_STRING_LIST:
		strvec_push(o->value, arg);
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, arg);
	default:
		return error("option '%s' has no handler", name);
	}
}

static const struct option *find_long(const struct option *opts, const char *name,
				      size_t len, int *negate)
{
	const struct option *o;

	*negate = 0;
	for (o = opts; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len &&
		    !strncmp(o->long_name, name, len))
			return o;
	if (len > 3 && !strncmp(name, "no-", 3)) {
		for (o = opts; o->type != OPTION_END; o++)
			if (o->type == OPTION_BOOL && o->long_name &&
			    strlen(o->long_name) == len - 3 &&
			    !strncmp(o->long_name, name + 3, len - 3)) {
				*negate = 1;
				return o;
			}
	}
	return NULL;
}

static const struct option *find_short(const struct option *opts, int c)
{
	const struct option *o;

	for (o = opts; o->type != OPTION_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usagestr)
{
	int i, nargs = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct option *o;
		const char *arg = NULL;
		int negate = 0;

		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				argv[nargs++] = argv[i];
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_usage(stdout, usagestr, opts);
			exit(finish_stdout(0));
		}
		if (!strcmp(a, PARSE_OPT_LIST_OPTIONS)) {
			list_options(stdout, opts);
			exit(finish_stdout(0));
		}
		if (a[0] != '-' || !a[1]) {
			argv[nargs++] = a;
			continue;
		}
		if (a[1] == '-') {
			const char *name = a + 2;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);

			o = find_long(opts, name, len, &negate);
			if (!o) {
				error("unknown option '--%.*s'", (int)len, name);
				usage_with_options(usagestr, opts);
			}
			if (eq) {
				if (!takes_arg(o)) {
					error("option '--%s' takes no value", o->long_name);
					usage_with_options(usagestr, opts);
				}
				arg = eq + 1;
			}
		} else {
			o = find_short(opts, a[1]);
			if (!o) {
				error("unknown switch '%c'", a[1]);
				usage_with_options(usagestr, opts);
			}
			if (a[2]) {
				if (!takes_arg(o)) {
					error("switch '%c' takes no value", a[1]);
					usage_with_options(usagestr, opts);
				}
				arg = a + 2;
			}
		}
		if (takes_arg(o) && !arg) {
			if (i + 1 >= argc) {
				char name[64];

				error("option '%s' requires a value",
				      opt_name(o, name, sizeof(name)));
				usage_with_options(usagestr, opts);
			}
			arg = argv[++i];
		}
		if (set_value(o, arg, negate))
			usage_with_options(usagestr, opts);
	}
	argv[nargs] = NULL;
	return nargs;
}

/* An option as --help shows it: "-j, --jobs N", "--runs N|auto", "-q, --quiet". */
static void option_term(struct strbuf *sb, const struct option *o)
{
	if (o->short_name)
		strbuf_addf(sb, "-%c", o->short_name);
	if (o->short_name && o->long_name)
		strbuf_addstr(sb, ", ");
	if (o->long_name)
		strbuf_addf(sb, "--%s", o->long_name);
	if (o->argh)
		strbuf_addf(sb, " %s", o->argh);
}

void list_options(FILE *fp, const struct option *opts)
{
	const struct option *o;

	for (o = opts; o->type != OPTION_END; o++) {
		struct strbuf sb = STRBUF_INIT;

		if (o->type == OPTION_GROUP)
			continue;
		option_term(&sb, o);
		fprintf(fp, "%s\t%s\n", sb.buf, o->type == OPTION_BOOL ? "bool" : "value");
		strbuf_release(&sb);
	}
}

void print_usage(FILE *fp, const char *const *usagestr, const struct option *opts)
{
	const struct option *o;
	int first = 1;

	for (; *usagestr && **usagestr; usagestr++) {
		fprintf(fp, "%s %s\n", first ? "usage:" : "   or:", *usagestr);
		first = 0;
	}
	if (*usagestr) {
		for (usagestr++; *usagestr; usagestr++)
			fprintf(fp, "%s%s\n", **usagestr ? "    " : "", *usagestr);
	}
	if (opts->type != OPTION_END)
		fputc('\n', fp);
	for (o = opts; o->type != OPTION_END; o++) {
		struct strbuf sb = STRBUF_INIT;

		if (o->type == OPTION_GROUP) {
			fprintf(fp, "\n%s\n", o->help);
			continue;
		}
		strbuf_addstr(&sb, "    ");
		option_term(&sb, o);
		if (sb.len >= 30)
			fprintf(fp, "%s\n%30s", sb.buf, "");
		else
			fprintf(fp, "%-30s", sb.buf);
		fprintf(fp, "%s\n", o->help ? o->help : "");
		strbuf_release(&sb);
	}
}

void usage_with_options(const char *const *usagestr, const struct option *opts)
{
	print_usage(stderr, usagestr, opts);
	exit(2);
}
