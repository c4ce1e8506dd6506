/* parse-options.h: table-driven option parsing that also writes --help. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PARSE_OPTIONS_H
#define PARSE_OPTIONS_H

#include <stdio.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_GROUP,		/* a heading in --help */
	OPTION_BOOL,		/* int *: set to 1 (0 with --no-NAME) */
	OPTION_INTEGER,		/* int *: a decimal integer */
	OPTION_DOUBLE,		/* double *: a finite number */
	OPTION_STRING,		/* const char **: the argument, not copied */
	OPTION_STRING_LIST,	/* struct strvec *: each use appends a copy */
	OPTION_CALLBACK,	/* callback(opt, arg) returns 0 or -1 */
};

struct option;
typedef int (*parse_opt_cb)(const struct option *opt, const char *arg);

struct option {
	enum parse_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* argument name in --help, NULL for bools */
	const char *help;
	parse_opt_cb callback;
};

#define OPT_END()                   { OPTION_END, 0, NULL, NULL, NULL, NULL, NULL }
#define OPT_GROUP(h)                { OPTION_GROUP, 0, NULL, NULL, NULL, (h), NULL }
#define OPT_BOOL(s, l, v, h)        { OPTION_BOOL, (s), (l), (v), NULL, (h), NULL }
#define OPT_INTEGER(s, l, v, a, h)  { OPTION_INTEGER, (s), (l), (v), (a), (h), NULL }
#define OPT_DOUBLE(s, l, v, a, h)   { OPTION_DOUBLE, (s), (l), (v), (a), (h), NULL }
#define OPT_STRING(s, l, v, a, h)   { OPTION_STRING, (s), (l), (v), (a), (h), NULL }
#define OPT_STRING_LIST(s, l, v, a, h) { OPTION_STRING_LIST, (s), (l), (v), (a), (h), NULL }
#define OPT_CALLBACK(s, l, v, a, h, cb) { OPTION_CALLBACK, (s), (l), (v), (a), (h), (cb) }

/*
 * Parses argv[1..argc-1] against opts.  Options and arguments may be mixed;
 * "--" ends option parsing.  The non-option arguments are moved to the front
 * of argv (argv[0..n-1]) and their count n is returned.  "-h" and "--help"
 * print the usage to stdout and exit 0; an unknown option or a bad value
 * prints an error and the usage to stderr and exits 2.
 *
 * usagestr is a NULL-terminated list: the first line is the synopsis
 * ("kconfperf config diff A B"), further lines are extra synopses or, after
 * an empty string, a description paragraph.
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const *usagestr);

/*
 * "--list-options", which every parse_options() caller takes and no --help
 * shows (git's --git-completion-helper): prints the table, one option a
 * line as --help writes it ("-j, --jobs N"), a tab, and "bool" or "value",
 * then exits 0.  tests/t/t2050-fast-help-pages.sh holds each command's
 * help and page to what it prints.
 */
#define PARSE_OPT_LIST_OPTIONS "--list-options"
void list_options(FILE *fp, const struct option *opts);

/* Prints the synopsis and the option table to fp. */
void print_usage(FILE *fp, const char *const *usagestr, const struct option *opts);

/* Prints the usage to stderr and exits 2. */
__attribute__((__noreturn__))
void usage_with_options(const char *const *usagestr, const struct option *opts);

#endif
