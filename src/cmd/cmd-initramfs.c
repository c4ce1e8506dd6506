/* cmd-initramfs.c: `kconfperf initramfs`, write the guest's initramfs (a developer command). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/commands.h"
#include "run/initramfs.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

static const char *const initramfs_usage[] = {
	"kconfperf initramfs -o OUT.gz [--guest PATH] [--add SRC:DEST]...",
	"",
	"Write the gzip'd newc initramfs that kconfperf boots: dev, dev/console,",
	"proc, sys and tmp, the guest program as /init (--guest, else $KCP_GUEST,",
	"else the kcp-guest beside kconfperf, as run takes it), and any extra files.",
	"The same arguments always give the same bytes.",
	NULL
};

/* Adds the host file SRC at DEST, keeping its permission bits. */
static int add_spec(struct initramfs *ir, const char *spec)
{
	const char *colon = strrchr(spec, ':');
	struct stat st;
	char *src;
	int ret;

	if (!colon || colon == spec || !colon[1])
		return error("--add expects SRC:DEST, not '%s'", spec);
	src = xstrndup(spec, (size_t)(colon - spec));
	if (stat(src, &st))
		ret = error_errno("cannot stat '%s'", src);
	else
		ret = initramfs_add_file_from(ir, colon + 1, st.st_mode & 07777, src);
	free(src);
	return ret;
}

int cmd_initramfs(int argc, const char **argv)
{
	const char *out = NULL, *guest = NULL;
	struct strvec adds = STRVEC_INIT;
	struct strbuf guest_path = STRBUF_INIT, cpio = STRBUF_INIT, gz = STRBUF_INIT;
	struct initramfs *ir = NULL;
	size_t i;
	int ret = 1;
	const struct option opts[] = {
		OPT_STRING('o', "output", &out, "OUT.gz", "write the archive here (atomically)"),
		OPT_STRING(0, "guest", &guest, "PATH",
			   "the static guest program, added as /init (default: kcp-guest beside kconfperf)"),
		OPT_STRING_LIST(0, "add", &adds, "SRC:DEST", "add host file SRC at DEST (repeatable)"),
		OPT_END()
	};

	argc = parse_options(argc, argv, opts, initramfs_usage);
	if (argc)
		usage_error("unexpected argument '%s'", argv[0]);
	if (!out)
		usage_error("initramfs needs -o OUT.gz");

	ir = initramfs_new();
	if (initramfs_find_guest(&guest_path, guest, NULL) || initramfs_add_base(ir) ||
	    initramfs_add_file_from(ir, "init", 0755, guest_path.buf))
		goto out;
	for (i = 0; i < adds.nr; i++)
		if (add_spec(ir, adds.v[i]))
			goto out;
	initramfs_cpio(ir, &cpio);
	/* -o is the user's file: written as told, links followed. */
	if (initramfs_gzip(&gz, cpio.buf, cpio.len) || strbuf_write_output(&gz, out))
		goto out;
	ret = 0;
out:
	initramfs_free(ir);
	strbuf_release(&cpio);
	strbuf_release(&gz);
	strvec_clear(&adds);
	strbuf_release(&guest_path);
	return ret;
}
