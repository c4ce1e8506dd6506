/* proc-stat.h: what /proc/PID/stat says about a process, read once for every caller. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PROC_STAT_H
#define PROC_STAT_H

struct proc_stat {
	char state;			/* 'R', 'S', 'Z'... */
	long ppid;			/* field 4 */
	long pgrp;			/* field 5 */
	unsigned long long start;	/* field 22, clock ticks after boot */
};

/*
 * Reads /proc/PID/stat into out: 0, or -1 when the process is gone or the
 * file does not parse ("PID (COMM) STATE ...", COMM may hold spaces and
 * parentheses).  Async-signal-safe: no allocation, no stdio, so the keeper
 * (keeper.h) may call it between fork and exit.
 */
int proc_stat_read(long pid, struct proc_stat *out);

#endif
