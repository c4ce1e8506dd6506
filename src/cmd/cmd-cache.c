/* cmd-cache.c: 'kconfperf cache': carry build cache entries between hosts' caches. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "kbuild/cache-transfer.h"
#include "plan/kernel-source.h"
#include "util/parse-options.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const cache_usage[] = {
	"kconfperf cache export [--cache DIR] KEY FILE",
	"kconfperf cache import [--cache DIR] FILE...",
	"",
	"Carries finished builds between the build caches of hosts, so that a kernel",
	"one worker built (kconfperf build --shard) is never built again elsewhere.",
	"",
	"export  write the build KEY (or the one whose key starts with it) to FILE",
	"import  put each FILE's build in the cache, verified first",
	NULL,
};

static const char *const export_usage[] = {
	"kconfperf cache export [--cache DIR] KEY FILE",
	"",
	"Writes the cache entry of the build KEY (the full key, or its first digits",
	"as 'kconfperf build' shows them) to FILE, a gzip'd tar of its image, config,",
	"build log, meta, System.map and exception table, with the SHA-256 of each.",
	NULL,
};

static const char *const import_usage[] = {
	"kconfperf cache import [--cache DIR] FILE...",
	"",
	"Puts each exported FILE's build into the cache, after checking that the",
	"archive holds only one entry's files, that each matches its checksum, and",
	"that the key computed again from its config, source identity, compiler and",
	"make variables is the key it is filed under.  An entry the cache has is",
	"kept.  Prints the key of each, and exits 1 when one was refused.",
	NULL,
};

#define OPT_CACHE(v) OPT_STRING(0, "cache", (v), "DIR", \
				"the build cache (default ~/.cache/kconfperf)")

static char *cache_dir_of(const char *opt)
{
	return opt ? absolute_path(opt) : default_cache_dir();
}

static int cache_export_cmd(int argc, const char **argv)
{
	const char *cache_opt = NULL;
	char key[SHA256_HEX_SIZE], *cache;
	const struct option opts[] = {
		OPT_CACHE(&cache_opt),
		OPT_END(),
	};
	int ret = 1;

	argc = parse_options(argc, argv, opts, export_usage);
	if (argc != 2)
		usage_with_options(export_usage, opts);
	cache = cache_dir_of(cache_opt);
	if (cache && !cache_export(cache, argv[0], argv[1], key)) {
		printf("%s %s\n", key, argv[1]);
		ret = 0;
	}
	free(cache);
	return ret;
}

static int cache_import_cmd(int argc, const char **argv)
{
	const char *cache_opt = NULL;
	char key[SHA256_HEX_SIZE], *cache;
	const struct option opts[] = {
		OPT_CACHE(&cache_opt),
		OPT_END(),
	};
	int i, ret = 0, already;

	argc = parse_options(argc, argv, opts, import_usage);
	if (argc < 1)
		usage_with_options(import_usage, opts);
	cache = cache_dir_of(cache_opt);
	if (!cache)
		return 1;
	for (i = 0; i < argc; i++) {
		if (cache_import(cache, argv[i], key, &already))
			ret = 1;
		else
			printf("%s %s%s\n", key, argv[i], already ? " (in the cache already)" : "");
	}
	free(cache);
	return ret;
}

static const struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
} subcommands[] = {
	{ "export", cache_export_cmd },
	{ "import", cache_import_cmd },
};

int cmd_cache(int argc, const char **argv)
{
	static const struct option no_opts[] = { OPT_END() };
	size_t i;

	if (argc < 2) {
		error("'cache' needs a subcommand");
		usage_with_options(cache_usage, no_opts);
	}
	/* -h, --help, --list-options (none: each subcommand has its own) */
	if (argv[1][0] == '-') {
		parse_options(argc, argv, no_opts, cache_usage);
		usage_with_options(cache_usage, no_opts);
	}
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	error("'%s' is not a 'cache' subcommand", argv[1]);
	usage_with_options(cache_usage, no_opts);
}
