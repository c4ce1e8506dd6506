/* lockfile.h: one way to take, record, inspect and release a lock file. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LOCKFILE_H
#define LOCKFILE_H

#include <sys/types.h>

/*
 * A lock file is held with flock(2) on an open descriptor, so the kernel
 * releases it when the last descriptor goes, even when its holder dies of
 * SIGKILL.  The last descriptor may be a child's: work that must hold the
 * lock for as long as any part of it runs (a build, whose compilers outlive
 * a killed kconfperf) inherits it (lockfile_inherit()).
 *
 * The holder writes who it is into the file, one line:
 *
 *     PID PGID BOOT_ID:PID_START:PGID_START [DOING]
 *
 * PID is the process that took the lock, PGID the process group of the
 * work it runs holding the lock (0 while none runs), and the last field a
 * token that proves identity: the boot id (/proc/sys/kernel/random/boot_id)
 * and the start times (/proc/PID/stat field 22) of PID and of the group's
 * leader.  A pid or group id reused by an unrelated process does not match
 * it.  DOING, when the holder set lk->doing, says what it does
 * ("planning"), for a message that names it.  A record without the token ("PID PGID", older kconfperf) is read
 * too.  The record stays when the lock is released: it names the last
 * holder, which is what a waiter needs when something else kept the lock.
 */
struct lockfile {
	int fd;			/* the open lock file, -1 when none */
	int held;		/* we hold the lock */
	char *path;
	const char *doing;	/* recorded: one lowercase word, or NULL */
};
#define LOCKFILE_INIT { .fd = -1 }

/*
 * Opens path (creating it, 0600: only its user may write a record that
 * another kconfperf acts on) and takes the lock if it is free: 0 when taken
 * (our record written, PGID 0), 1 when someone else holds it (the file
 * stays open, for lockfile_read_owner()), -1 on an error (message
 * printed).  The descriptor is close-on-exec.  Either way the caller
 * calls lockfile_release().
 */
int lockfile_try(struct lockfile *lk, const char *path);

/*
 * What lockfile_take() says and how long it waits: "waiting for another
 * kconfperf <what> in '<where>' (pid N)" while a live holder has the lock;
 * "stopping the <what> that kconfperf (pid N) left running" when the
 * holder is dead and its work's process group still holds the lock (that
 * group is killed); and, when the holder is dead and the lock is held by
 * something that is not its work, an error after outsider_seconds:
 * "'<path>' is held by a process that outlived kconfperf (pid N) and is not
 * a <what><hint>", naming the processes that hold it.
 */
struct lockfile_wait {
	const char *what;
	const char *where;
	const char *outsider_hint;	/* " (a compiler wrapper's server?)" or "" */
	int outsider_seconds;
};

/*
 * Takes the lock as above, checking once a second; a record that changes
 * between two reads 100 ms apart (a kconfperf that has just taken the
 * lock and not yet written its record) is not acted on.  0, or -1 with a
 * message; the caller calls lockfile_release() either way.
 */
int lockfile_take(struct lockfile *lk, const char *path, const struct lockfile_wait *w);

/*
 * Records that the work in process group pgid (0: none) runs holding the
 * lock; a warning when the file cannot be written.
 */
void lockfile_record(struct lockfile *lk, pid_t pgid);

/*
 * Whether a child started from now on inherits the lock's descriptor
 * (on: 1) or not (0, the default).  0, or -1 with a message.
 */
int lockfile_inherit(struct lockfile *lk, int on);

/* Releases the lock (if held) and frees lk's strings; the record stays. */
void lockfile_release(struct lockfile *lk);

/* What a lock file's record says (all 0 when it says nothing readable). */
struct lockfile_owner {
	long pid, pgid;
	int has_token;
	char boot_id[40];
	unsigned long long pid_start, pgid_start;
	char doing[24];		/* "" when the record says nothing */
};

/* Reads lk's record: 0, or -1 when it is empty or does not parse. */
int lockfile_read_owner(const struct lockfile *lk, struct lockfile_owner *out);

/*
 * Whether the recorded holder still runs: its pid exists and, when the
 * record has a token, it is the same boot and the process started when
 * the record says (so a reused pid is not taken for the holder).
 */
int lockfile_owner_alive(const struct lockfile_owner *o);

/*
 * Whether o->pgid is provably the process group of the recorded holder's
 * work: never a group id <= 1 or our own group; else a process of that
 * group has lk's file open (the work inherits the descriptor, an unrelated
 * group does not).  The record's start times are no proof: they are public
 * (/proc/PID/stat), so a forged record could copy a victim's.  Only such a
 * group may be signalled.
 */
int lockfile_is_holders_group(const struct lockfile *lk, const struct lockfile_owner *o);

#endif
