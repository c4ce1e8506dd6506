/* cmd-explain.c: `kconfperf explain`, say why a setting does or does not take in a resolved .config. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "kconfig/kconfig-index.h"
#include "kconfig/kconfig.h"
#include "plan/arch.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const explain_usage[] = {
	"kconfperf explain --source DIR [--arch ARCH] --config FILE [--with-deps] SYMBOL...",
	"",
	"Read the Kconfig files of the kernel tree DIR and say, for each SYMBOL",
	"(with or without CONFIG_), whether a .config can set it given the",
	"resolved FILE: unknown, hidden (only select sets it), unmet-deps,",
	"module-only, choice or settable, and why.  --with-deps adds the",
	"visible symbols to set =y first.",
	NULL
};

static void explain_one(const struct kconfig_index *idx, const char *arg, int with_deps,
			struct kconfig *kc)
{
	struct strbuf msg = STRBUF_INIT;
	struct strvec deps = STRVEC_INIT;
	enum kconfig_explain what;
	const char *name = arg;
	size_t i;

	skip_prefix(arg, "CONFIG_", &name);
	what = kconfig_index_explain(&msg, idx, name, kconfig_lookup, kc);
	printf("%s: %s: %s\n", name, kconfig_explain_name(what), msg.buf);
	if (with_deps) {
		strbuf_reset(&msg);
		if (kconfig_index_deps_to_enable(&deps, idx, name, kconfig_lookup, kc, &msg)) {
			printf("%s: deps: cannot: %s\n", name, msg.buf);
		} else {
			printf("%s: deps:", name);
			for (i = 0; i < deps.nr; i++)
				printf(" %s", deps.v[i]);
			printf("%s\n", deps.nr ? "" : " none needed");
		}
	}
	strvec_clear(&deps);
	strbuf_release(&msg);
}

int cmd_explain(int argc, const char **argv)
{
	const char *source = NULL, *arch = NULL, *srcarch, *config = NULL;
	struct kconfig *kc = NULL;
	struct kconfig_index *idx = NULL;
	int with_deps = 0, verbose = 0, ret = 1, i;
	double start;
	const struct option opts[] = {
		OPT_STRING(0, "source", &source, "DIR", "the kernel tree whose Kconfig files to read"),
		OPT_STRING(0, "arch", &arch, "ARCH",
			   "x86_64, arm64 or a SRCARCH (default: the --config's arch, else x86)"),
		OPT_STRING(0, "config", &config, "FILE", "the resolved .config to judge against"),
		OPT_BOOL(0, "with-deps", &with_deps, "also list the symbols to enable first"),
		OPT_BOOL('v', "verbose", &verbose, "say how long reading the Kconfig files took"),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts, explain_usage);
	if (!source)
		usage_error("explain needs --source DIR");
	if (!config)
		usage_error("explain needs --config FILE");
	if (!argc)
		usage_error("explain needs at least one SYMBOL");
	if (kconfig_load(&kc, config, 0))
		goto out;
	/* kconfperf's arch names read their arch/ directory; anything else is one. */
	if (arch && arch_find(arch))
		srcarch = arch_find(arch)->srcarch;
	else if (arch)
		srcarch = arch;
	else
		srcarch = arch_of_config(kc) ? arch_of_config(kc)->srcarch : "x86";
	start = now_seconds();
	if (kconfig_index_load(&idx, source, srcarch))
		goto out;
	if (verbose)
		note("read %zu Kconfig files, %zu symbols, in %.0f ms",
		     kconfig_index_nr_files(idx), kconfig_index_nr_symbols(idx),
		     (now_seconds() - start) * 1000);
	for (i = 0; i < argc; i++)
		explain_one(idx, argv[i], with_deps, kc);
	ret = 0;
out:
	kconfig_index_free(idx);
	kconfig_free(kc);
	return ret;
}
