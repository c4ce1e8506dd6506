/* commands.h: the cmd_*() entry points, one per subcommand (src/cmd-*.c). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef COMMANDS_H
#define COMMANDS_H

/*
 * Each gets argv[0] == its own name and returns the process exit status:
 * 0 success, 1 failure, 2 usage error.  main.c's table lists them.
 */

int cmd_build(int argc, const char **argv);
int cmd_cache(int argc, const char **argv);
int cmd_config(int argc, const char **argv);
int cmd_explain(int argc, const char **argv);
int cmd_import(int argc, const char **argv);
int cmd_initramfs(int argc, const char **argv);
int cmd_merge(int argc, const char **argv);
int cmd_plan(int argc, const char **argv);
int cmd_profile(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_run(int argc, const char **argv);
int cmd_screen(int argc, const char **argv);
int cmd_simulate_screen(int argc, const char **argv);
int cmd_sweep(int argc, const char **argv);
int cmd_vm(int argc, const char **argv);
int cmd_workloads(int argc, const char **argv);

#endif
