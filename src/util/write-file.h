/* write-file.h: the one way kconfperf replaces a file: its own, or one it is told to write. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef WRITE_FILE_H
#define WRITE_FILE_H

#include <stddef.h>

struct strbuf;

/*
 * Where writing to path really goes.  Symbolic links are followed to the
 * file they name, which need not exist yet (a dangling link is written
 * through, so the link stays and its target appears).  Returns:
 *
 *   WRITE_TO_FD       path names one of our own descriptors: "-",
 *                     /dev/stdout, /dev/fd/N, /proc/self/fd/N (*fd set);
 *                     the bytes go to that descriptor, as a shell's
 *                     redirection would send them
 *   WRITE_IN_PLACE    an existing file that is not a regular one (a device,
 *                     a FIFO, a socket, a link inside /proc): opened and
 *                     written, never renamed over
 *   WRITE_REPLACE     a regular file or none yet: out holds the resolved
 *                     path, to be replaced atomically beside itself
 *
 * or -1 with an error printed (a loop of links, a target that cannot be
 * looked up).  out always holds the path to open or replace.
 */
enum write_target {
	WRITE_TO_FD,
	WRITE_IN_PLACE,
	WRITE_REPLACE,
};
int write_target_resolve(struct strbuf *out, int *fd, const char *path);

/*
 * A file the user named (-o FILE): writes len bytes to path as
 * write_target_resolve() says: a regular file is replaced atomically (temp
 * file beside the resolved path, then rename; an existing file keeps its
 * permission bits), so a reader never sees half of it and a symbolic link
 * is never replaced by a file.  "-" is standard output (stdio's buffer
 * flushed first).  0, or -1 with an error printed that names path.
 */
int write_output(const char *path, const void *buf, size_t len);

/*
 * A file kconfperf names itself (DIR/report.json, DIR/runs/<v>/config, a
 * cache entry's meta): written atomically as above, but path is never
 * followed: a symbolic link there is replaced by the new regular file, so
 * a crafted directory cannot make kconfperf write outside it; a directory,
 * device, FIFO or socket there is an error.  The temporary file beside it is created
 * with O_EXCL (never through a link) and a regular file's permission bits
 * are kept.  "-" is a file named "-".  0, or -1 with an error naming path.
 */
int write_file(const char *path, const void *buf, size_t len);

#endif
