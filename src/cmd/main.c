/* main.c: kconfperf's command table, dispatch and generated --help. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cmd/commands.h"
#include "run/guestfs.h"
#include "util/levenshtein.h"
#include "util/parse-options.h"
#include "util/run-command.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/version.h"
#include "util/wrapper.h"

static const char *const version_usage[] = {
	"kconfperf version",
	"",
	"Prints kconfperf's version (as 'kconfperf --version' does).",
	NULL,
};

static int cmd_version(int argc, const char **argv)
{
	static const struct option opts[] = { OPT_END() };

	if (argv && parse_options(argc, argv, opts, version_usage))
		usage_with_options(version_usage, opts);
	printf("kconfperf %s\n", KCONFPERF_VERSION);
	return 0;
}

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
};

/* The one list of commands: dispatch, --help and suggestions all read it. */
static const struct command commands[] = {
	{ "sweep", cmd_sweep, "the whole experiment in one resumable command" },
	{ "screen", cmd_screen, "find the few costly options among many with few builds (sequential bifurcation)" },
	{ "simulate-screen", cmd_simulate_screen, "plan a screen: its engine on a table of option costs, over many seeds" },
	{ "plan", cmd_plan, "resolve each variant with the kernel's own Kconfig" },
	{ "build", cmd_build, "build each distinct kernel once, in a shared cache" },
	{ "run", cmd_run, "boot each kernel with the workloads, many times, and keep every run" },
	{ "report", cmd_report, "report what each option costs (text, mmtests, markdown, csv, json, svg, html)" },
	{ "profile", cmd_profile, "where the guest's instructions went, per kernel function (callgrind's format too)" },
	{ "import", cmd_import, "make an experiment from hyperfine --export-json files" },
	{ "config", cmd_config, "compare, merge and check .config files and fragments" },
	{ "workloads", cmd_workloads, "list the guest workloads and their parameters" },
	{ "explain", cmd_explain, "say why a Kconfig symbol can or cannot be set (developer command)" },
	{ "initramfs", cmd_initramfs, "write the guest's initramfs (developer command)" },
	{ "vm", cmd_vm, "boot a kernel once and print the run (developer command)" },
	{ "version", cmd_version, "print kconfperf's version" },
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void print_help(FILE *fp)
{
	size_t i;
	int width = 0;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if ((int)strlen(commands[i].name) > width)
			width = (int)strlen(commands[i].name);
	fprintf(fp, "usage: kconfperf [--version] [--help] <command> [<args>]\n\n"
		"Measure what Linux kernel configuration options cost.\n\n"
		"commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "    %-*s  %s\n", width, commands[i].name, commands[i].help);
	fprintf(fp, "\nSee 'kconfperf help <command>' for a command's page, 'man kconfperf' for\n"
		"the concepts (docs/README.md in the source).\n");
}

static const char *closest_command(const char *name)
{
	const char *best = NULL;
	int best_d = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		int d = levenshtein(name, commands[i].name);

		if (!strncmp(name, commands[i].name, strlen(name)))
			d = 0;
		if (!best || d < best_d) {
			best = commands[i].name;
			best_d = d;
		}
	}
	return best;
}

static int run_builtin(const struct command *cmd, int argc, const char **argv)
{
	return finish_stdout(cmd->fn(argc, argv));
}

/* Whether man finds the page (installed by 'make install'). */
static int man_has_page(const char *page)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int ret;

	strvec_push(&cp.args, "man");
	strvec_push(&cp.args, "-w");
	strvec_push(&cp.args, page);
	cp.out.mode = CHILD_IO_NULL;
	cp.err.mode = CHILD_IO_NULL;
	cp.timeout = 10;
	ret = !run_command(&cp);
	child_process_release(&cp);
	return ret;
}

/*
 * 'kconfperf help CMD', as git's: on a terminal with the page installed,
 * the man page; else the command's --help and where its page is.
 */
static int help_command(const struct command *cmd)
{
	const char *help_argv[] = { NULL, "--help", NULL };
	struct strbuf page = STRBUF_INIT;
	pid_t pid;
	int status;

	strbuf_addf(&page, "kconfperf-%s", cmd->name);
	if (man_has_page(page.buf) && isatty(1)) {
		const char *man[] = { "man", page.buf, NULL };

		fflush(stdout);
		execvp(man[0], (char **)man);
		error_errno("cannot run man");
	}
	fflush(stdout);
	/* The command's --help exits; run it in a child and add the pointer. */
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (!pid) {
		help_argv[0] = cmd->name;
		exit(run_builtin(cmd, 2, help_argv));
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	if (man_has_page(page.buf))
		printf("\nThe whole page: 'man %s'.\n", page.buf);
	else
		printf("\nThe whole page: docs/man/%s.adoc in kconfperf's source "
		       "('make doc install' makes 'man %s' work).\n", page.buf, page.buf);
	strbuf_release(&page);
	return finish_stdout(0);
}

int main(int argc, const char **argv)
{
	const struct command *cmd;
	const char *base = argc ? strrchr(argv[0], '/') : NULL;

	/* LIBGUESTFS_HV points at kconfperf under this name (run/guestfs.h). */
	if (argc && !strcmp(base ? base + 1 : argv[0], GUESTFS_HV_NAME))
		return guestfs_hv_main(argc, argv);

	if (argc < 2) {
		print_help(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version"))
		return finish_stdout(cmd_version(argc - 1, argv + 1));
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_help(stdout);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "help")) {
		if (argc < 3) {
			print_help(stdout);
			return finish_stdout(0);
		}
		cmd = find_command(argv[2]);
		if (!cmd)
			usage_error("'%s' is not a kconfperf command; did you mean '%s'?",
				    argv[2], closest_command(argv[2]));
		return help_command(cmd);
	}
	if (argv[1][0] == '-')
		usage_error("unknown option '%s'; see 'kconfperf --help'", argv[1]);
	cmd = find_command(argv[1]);
	if (!cmd)
		usage_error("'%s' is not a kconfperf command; did you mean '%s'?",
			    argv[1], closest_command(argv[1]));
	signal(SIGPIPE, SIG_DFL);
	return run_builtin(cmd, argc - 1, argv + 1);
}
