/* cmd-config.c: 'kconfperf config': compare, merge and check .config files. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "kconfig/kconfig.h"
#include "plan/options-file.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const config_usage[] = {
	"kconfperf config diff [-m] A B",
	"kconfperf config merge [-o OUT] BASE FRAG...",
	"kconfperf config check [--options] FILE...",
	"",
	"Compare, merge and check .config files and fragments.",
	"",
	"diff    show what changed from A to B, as the kernel's scripts/diffconfig",
	"merge   apply fragments to BASE, as scripts/kconfig/merge_config.sh -m",
	"check   parse files and report bad lines and a summary",
	NULL,
};

static const char *const diff_usage[] = {
	"kconfperf config diff [-m] A B",
	"",
	"Prints the symbols removed (-X v), changed ( X old -> new) and added",
	"(+X v) from A to B, byte for byte as scripts/diffconfig does.",
	NULL,
};

static const char *const merge_usage[] = {
	"kconfperf config merge [-o OUT] BASE FRAG...",
	"",
	"Merges each fragment into BASE in turn as 'merge_config.sh -m' does,",
	"warning about redefined values, and writes the result to stdout or OUT.",
	NULL,
};

static const char *const check_usage[] = {
	"kconfperf config check [--options] FILE...",
	"",
	"Parses each file, reports every bad line as FILE:LINE, and prints a",
	"summary of the symbols of each good one.",
	NULL,
};

/* Writes sb to stdout; main() turns a write error into a failure. */
static void print_buf(const struct strbuf *sb)
{
	fwrite(sb->buf, 1, sb->len, stdout);
}

static int config_diff(int argc, const char **argv)
{
	int merge_style = 0;
	struct option opts[] = {
		OPT_BOOL('m', "merge-style", &merge_style,
			 "print changed and added symbols as .config lines"),
		OPT_END(),
	};
	struct kconfig *a = NULL, *b = NULL;
	struct strbuf out = STRBUF_INIT;
	int ret = 1;

	argc = parse_options(argc, argv, opts, diff_usage);
	if (argc != 2) {
		error("'config diff' takes two files, not %d", argc);
		usage_with_options(diff_usage, opts);
	}
	if (kconfig_load(&a, argv[0], 0) || kconfig_load(&b, argv[1], 0))
		goto out;
	kconfig_diff(a, b, &out, merge_style);
	print_buf(&out);
	ret = 0;
out:
	strbuf_release(&out);
	kconfig_free(a);
	kconfig_free(b);
	return ret;
}

static int config_merge(int argc, const char **argv)
{
	const char *output = NULL;
	struct option opts[] = {
		OPT_STRING('o', "output", &output, "OUT",
			   "write the result to OUT (atomically) instead of stdout"),
		OPT_END(),
	};
	struct kconfig *base = NULL, *frag = NULL;
	struct strbuf out = STRBUF_INIT;
	int i, ret = 1;

	argc = parse_options(argc, argv, opts, merge_usage);
	if (argc < 2) {
		error("'config merge' takes a base and at least one fragment");
		usage_with_options(merge_usage, opts);
	}
	if (kconfig_load(&base, argv[0], 0))
		goto out;
	for (i = 1; i < argc; i++) {
		if (kconfig_load(&frag, argv[i], 0))
			goto out;
		kconfig_merge(base, frag, argv[i]);
		kconfig_free(frag);
		frag = NULL;
	}
	if (output) {
		kconfig_write(base, &out);
		if (strbuf_write_output(&out, output))
			goto out;
	} else {
		kconfig_write(base, &out);
		print_buf(&out);
	}
	ret = 0;
out:
	strbuf_release(&out);
	kconfig_free(base);
	kconfig_free(frag);
	return ret;
}

/*
 * An options file as plan reads it (options-file.h: groups too): every
 * setting into *out, and "NAME (N options), ..." of its groups into groups.
 */
static int load_options(struct kconfig **out, struct strbuf *groups, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct plan_option *opts = NULL;
	size_t nr = 0, i, iter;
	const char *name, *value;
	int ret = -1;

	*out = NULL;
	if (strbuf_read_file_max(&sb, path, KCONFIG_MAX_SIZE) < 0 ||
	    plan_parse_options(&opts, &nr, path, sb.buf, sb.len))
		goto out;
	*out = kconfig_new();
	for (i = 0; i < nr; i++) {
		for (iter = 0; kconfig_next(opts[i].settings, &iter, &name, &value); )
			if (kconfig_set(*out, name, value))
				BUG("cannot set the parsed CONFIG_%s=%s", name, value);
		if (opts[i].is_group)
			strbuf_addf(groups, "%s%s (%zu options)", groups->len ? ", " : "",
				    opts[i].label, kconfig_count(opts[i].settings));
	}
	ret = 0;
out:
	plan_option_list_free(opts, nr);
	strbuf_release(&sb);
	return ret;
}

static int config_check(int argc, const char **argv)
{
	int loose = 0;
	struct option opts[] = {
		OPT_BOOL(0, "options", &loose,
			 "an options file: X, X=m, CONFIG_X without a value, groups"),
		OPT_END(),
	};
	int i, ret = 0;

	argc = parse_options(argc, argv, opts, check_usage);
	if (argc < 1) {
		error("'config check' needs at least one file");
		usage_with_options(check_usage, opts);
	}
	for (i = 0; i < argc; i++) {
		size_t n[KCONFIG_VALUE_STRING + 1] = { 0 }, ny = 0, nm = 0, iter = 0;
		struct kconfig *kc;
		const char *name, *value;

		struct strbuf groups = STRBUF_INIT;

		if (loose ? load_options(&kc, &groups, argv[i]) : kconfig_load(&kc, argv[i], 0)) {
			ret = 1;
			continue;
		}
		while (kconfig_next(kc, &iter, &name, &value)) {
			n[kconfig_value_type(value)]++;
			ny += !strcmp(value, "y");
			nm += !strcmp(value, "m");
		}
		printf("%s: %zu symbols: %zu y, %zu m, %zu n, %zu numbers, %zu strings%s%s\n",
		       argv[i], kconfig_count(kc), ny, nm, n[KCONFIG_VALUE_TRISTATE] - ny - nm,
		       n[KCONFIG_VALUE_DECIMAL] + n[KCONFIG_VALUE_HEX], n[KCONFIG_VALUE_STRING],
		       groups.len ? "; groups: " : "", groups.buf);
		strbuf_release(&groups);
		kconfig_free(kc);
	}
	return ret;
}

static const struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
} subcommands[] = {
	{ "diff", config_diff },
	{ "merge", config_merge },
	{ "check", config_check },
};

int cmd_config(int argc, const char **argv)
{
	static const struct option no_opts[] = { OPT_END() };
	size_t i;

	if (argc < 2) {
		error("'config' needs a subcommand");
		usage_with_options(config_usage, no_opts);
	}
	/* -h, --help, --list-options (none: each subcommand has its own) */
	if (argv[1][0] == '-') {
		parse_options(argc, argv, no_opts, config_usage);
		usage_with_options(config_usage, no_opts);
	}
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	error("'%s' is not a 'config' subcommand", argv[1]);
	usage_with_options(config_usage, no_opts);
}
