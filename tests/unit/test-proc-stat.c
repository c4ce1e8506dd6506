/* test-proc-stat.c: unit tests for the one /proc/PID/stat reader (util/proc-stat.h). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <unistd.h>
#include <sys/prctl.h>

#include "test-lib.h"
#include "util/proc-stat.h"

/* This process: its parent, group and state, whatever its name holds. */
static void test_self(void)
{
	struct proc_stat ps = { 0 };

	/* a name with the separators a naive parser splits on */
	check_int(prctl(PR_SET_NAME, "a) b (c 7 8", 0, 0, 0), ==, 0);
	check_int(proc_stat_read((long)getpid(), &ps), ==, 0);
	check_int(ps.state, ==, 'R');
	check_int(ps.ppid, ==, (long)getppid());
	check_int(ps.pgrp, ==, (long)getpgrp());
	check(ps.start > 0);
	check_int(prctl(PR_SET_NAME, "test-proc-stat", 0, 0, 0), ==, 0);
}

static void test_gone(void)
{
	struct proc_stat ps;

	check_int(proc_stat_read(0, &ps), ==, -1);
	check_int(proc_stat_read(-5, &ps), ==, -1);
	/* above /proc/sys/kernel/pid_max's ceiling (2^22): never a process */
	check_int(proc_stat_read(4194305, &ps), ==, -1);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_self);
	TEST(test_gone);
	return test_done();
}
