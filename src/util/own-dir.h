/* own-dir.h: directories only kconfperf (its user) can change: the cache's and the experiment's. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef OWN_DIR_H
#define OWN_DIR_H

/*
 * kconfperf runs make in trees it finds in its cache and deletes what its
 * eviction finds there, so a cache that someone else can write to is a way
 * to run code as kconfperf's user (often root) and to delete that user's
 * files.  The rules are ssh's for ~/.ssh:
 *
 *   - the directory itself is not a symbolic link (lstat), is owned by the
 *     effective user and is not writable by its group or others;
 *   - every directory above it, after symbolic links there are resolved
 *     (realpath), is owned by root or the effective user and is not
 *     writable by group or others, unless its sticky bit is set (/tmp:
 *     there nobody else can rename or remove what we made).
 *
 * A directory that passes cannot be swapped or written by anyone but its
 * user and root, so what kconfperf finds in it is what kconfperf made, and
 * paths below it can be used without a race.
 */

/*
 * Makes path (its missing parents too, mode 0755) and checks it and the
 * directories above it as above.  what names it in messages ("the cache",
 * "the cache's trees/").  Returns 0, or -1 with a message:
 *
 *   "<what> '<path>' is a symbolic link; name the directory it leads to"
 *   "<what> '<path>' is owned by uid N, not by you (uid M)"
 *   "<what> '<path>' is writable by its group or others (mode 0775); run 'chmod go-w <path>'"
 *   "'<dir>' above <what> '<path>' is owned by uid N, neither root nor you"
 */
int own_dir_make(const char *path, const char *what);

/*
 * Checks an existing path against OWN_DIR_STRICT without making
 * anything: 0, 1 when path does not exist, -1 with a message as above.
 */
int own_dir_check(const char *path, const char *what);

/*
 * Inside an experiment directory, which may be shared with a group, only
 * links are refused: base/sub is made (0755 less the umask) with every
 * component of sub ("runs/v/boot") created or found as a directory
 * without following a symbolic link, so that nothing kconfperf names
 * there leads out of base.  0, or -1 with "'<path>' is a symbolic link;
 * kconfperf makes its own directories in '<base>'" or a failure to make it.
 */
int own_subdir_make(const char *base, const char *sub);

#endif
