/* cmd-workloads.c: `kconfperf workloads`, list the guest workloads and their parameters. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "util/escape.h"
#include "util/parse-options.h"
#include "run/protocol.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "run/workload-spec.h"

static const char *const workloads_usage[] = {
	"kconfperf workloads [--all] [NAME...]",
	"kconfperf workloads --cmdline NAME[:k=v,...]",
	"kconfperf workloads --check-output FILE",
	"",
	"Lists the workloads built into the guest, with each parameter's default.",
	"Use one in 'sweep --workload NAME:k=v,...'; NAME:k=v1,v2,v3 is a series, one",
	"workload per value, reported in one table.  cmd:PROGRAM ARGS runs a program",
	"of this host in the guest.  --cmdline checks such a spec",
	"and prints the kernel command line parameters the guest will read.",
	"--check-output reads a guest's or a --runner's output (- for stdin),",
	"prints what it reported and exits 0 only for a complete run.",
	NULL
};

static void print_param(const struct workload_param *p)
{
	struct strbuf left = STRBUF_INIT;

	strbuf_addf(&left, "%s=%s", p->name, p->def);
	printf("    %-20s %s", left.buf, p->help);
	switch (p->type) {
	case WP_COUNT:
	case WP_SIZE:
	case WP_BLOCKS:
		printf(" (%llu to %llu%s%s)", p->min, p->max,
		       p->type != WP_COUNT ? ", K/M/G suffix" : "",
		       p->type == WP_BLOCKS ? ", a multiple of 512" : "");
		break;
	case WP_CHOICE:
		printf(" (%s)", p->choices);
		break;
	case WP_PATH:
	case WP_TEXT:
		break;
	}
	putchar('\n');
	strbuf_release(&left);
}

static void print_workload(int id)
{
	const struct workload_info *w = &workload_table[id];
	size_t i;

	printf("%s\n    %s\n", w->name, w->summary);
	printf("    %-20s %s in %s, %s is better\n", "(sample)", w->metric, w->unit,
	       w->higher_is_better ? "higher" : "lower");
	if (w->flags & WL_COMMAND) {
		/* its parameters come from the spec and the options after it */
		printf("    --workload 'cmd:PROGRAM ARGS...' [--scratch SIZE[:ram,lvm,crypt,ext4]]...\n"
		       "        [--extract NAME,UNIT,higher|lower,re:REGEX|csv:FIELD|json:KEY]...\n"
		       "    the guest's PATH, HOME=/tmp, LC_ALL=C, cwd /tmp; /bin/sh -c only for shell "
		       "syntax;\n    scratch disk N is /dev/vdX (vda first; with ram first, /dev/ramN), "
		       "its top device\n    /dev/kcp/vdX (X by position), ext4 on /mnt/vdX\n");
		return;
	}
	for (i = 0; i < nr_workload_params; i++)
		if ((int)workload_params[i].workload == id)
			print_param(&workload_params[i]);
}

static int print_cmdline(const char *spec_str)
{
	struct workload_spec spec = WORKLOAD_SPEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	if (workload_spec_parse(&spec, spec_str))
		return 1;
	workload_spec_cmdline(&spec, &sb);
	printf("%s\n", sb.buf);
	strbuf_release(&sb);
	workload_spec_release(&spec);
	return 0;
}

static int check_output(const char *path)
{
	struct protocol_result r = PROTOCOL_RESULT_INIT;
	struct strbuf buf = STRBUF_INIT, why = STRBUF_INIT;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	size_t i;
	int ret = 1;

	if (strcmp(path, "-")) {
		if (strbuf_read_file_max(&buf, path, KCP_OUTPUT_MAX) < 0)
			goto out;
	} else if (strbuf_read_fd_max(&buf, 0, 0, KCP_OUTPUT_MAX) < 0) {
		if (errno == EFBIG)
			error_too_large(name, KCP_OUTPUT_MAX);
		else
			error_errno("cannot read stdin");
		goto out;
	}
	protocol_parse_buffer(&r, buf.buf, buf.len, name);
	strbuf_reset(&buf);
	if (r.ready)
		strbuf_addf(&buf, "ready boot_s=%.6f\n", r.boot_seconds);
	/* The output's words are the guest's: none reaches the terminal raw. */
	for (i = 0; i < r.nr_samples; i++) {
		const struct protocol_sample *s = &r.samples[i];

		strbuf_addstr(&buf, "sample workload=");
		strbuf_add_text(&buf, s->workload);
		strbuf_addf(&buf, " iter=%u ", s->iteration);
		strbuf_add_text(&buf, s->metric);
		strbuf_addf(&buf, "=%.9g ", s->value);
		strbuf_add_text(&buf, s->unit);
		strbuf_addf(&buf, " (%s is better)\n", s->higher_is_better ? "higher" : "lower");
	}
	if (r.done)
		strbuf_addstr(&buf, "done\n");
	fputs(buf.buf, stdout);
	if (protocol_result_complete(&r, &why))
		ret = 0;
	else
		error("%s: incomplete run: %s", name, why.buf);
out:
	protocol_result_release(&r);
	strbuf_release(&buf);
	strbuf_release(&why);
	return ret;
}

int cmd_workloads(int argc, const char **argv)
{
	const char *cmdline = NULL, *output = NULL;
	int all = 0, i, n = 0;
	const struct option opts[] = {
		OPT_BOOL('a', "all", &all, "also list the workloads for kconfperf's own tests"),
		OPT_STRING(0, "cmdline", &cmdline, "spec",
			   "check a workload spec and print its kernel parameters"),
		OPT_STRING(0, "check-output", &output, "file",
			   "check a run's output against the line protocol"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, workloads_usage);
	if (cmdline && output)
		usage_error("--cmdline and --check-output cannot be used together");
	if (output) {
		if (argc)
			usage_error("--check-output takes no workload names");
		return check_output(output);
	}
	if (cmdline) {
		if (argc)
			usage_error("--cmdline takes no workload names");
		return print_cmdline(cmdline);
	}
	for (i = 0; i < argc; i++)
		if (workload_find(argv[i]) < 0) {
			struct workload_spec spec = WORKLOAD_SPEC_INIT;

			/* parsing it gives the message that lists what exists */
			if (!workload_spec_parse(&spec, argv[i])) {
				workload_spec_release(&spec);
				error("'%s' is a spec, not a workload name; see --cmdline",
				      argv[i]);
			}
			return 1;
		}
	for (i = 0; i < NR_WORKLOADS; i++) {
		int j, wanted = !argc && (all || !(workload_table[i].flags & WL_TEST));

		for (j = 0; j < argc; j++)
			if (!strcmp(argv[j], workload_table[i].name))
				wanted = 1;
		if (!wanted)
			continue;
		if (n++)
			putchar('\n');
		print_workload(i);
	}
	return 0;
}
