/* kbuild-map.c: a built kernel's System.map and exception table, for the meter. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild/elf-sizes.h"
#include "kbuild/kbuild-parts.h"
#include "kbuild/kbuild.h"
#include "kbuild/objects-index.h"
#include "util/wrapper.h"

/* The file name beside path (a file in some directory), malloc'd. */
static char *beside(const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(name);
	return xstrfmt("%.*s/%s", (int)(slash - path), path, name);
}

char *kbuild_extable_beside(const char *map)
{
	char *path = beside(map, KBUILD_EXTABLE_NAME);

	if (!access(path, R_OK))
		return path;
	free(path);
	return NULL;
}

/*
 * An entry CACHE/builds/<key> (its map at map) made before the cache kept
 * the exception table: written from its kept tree's vmlinux, when the
 * tree is there and the entry writable.
 */
static void adopt_extable(const char *map)
{
	char *entry = xstrdup(map), *own = beside(map, KBUILD_EXTABLE_NAME), *vmlinux = NULL;
	char *slash = strrchr(entry, '/');

	if (slash)
		*slash = '\0';
	slash = slash ? strrchr(entry, '/') : NULL;
	if (slash && slash - entry >= 7 && !strncmp(slash - 7, "/builds", 7)) {
		vmlinux = xstrfmt("%.*s/trees/%s/vmlinux", (int)(slash - 7 - entry), entry, slash + 1);
		if (access(own, F_OK) && !access(vmlinux, R_OK) && !access(entry, W_OK))
			elf_extable_write(vmlinux, own);
	}
	free(entry);
	free(own);
	free(vmlinux);
}

char *kbuild_objects_index(const char *image)
{
	char *own = beside(image, OBJECTS_INDEX_NAME), *entry = xstrdup(image), *slash, *tree;
	char *tmp = NULL, *ret = NULL;

	if (!access(own, R_OK)) {
		ret = own;
		own = NULL;
		goto out;
	}
	/* CACHE/builds/<key>/IMAGE -> CACHE/trees/<key> */
	slash = strrchr(entry, '/');
	if (slash)
		*slash = '\0';
	slash = slash ? strrchr(entry, '/') : NULL;
	if (!slash || slash - entry < 7 || strncmp(slash - 7, "/builds", 7))
		goto out;
	tree = xstrfmt("%.*s/trees/%s", (int)(slash - 7 - entry), entry, slash + 1);
	if (!access(tree, R_OK) && !access(entry, W_OK)) {
		/* written beside, then renamed in: never half an index */
		tmp = xstrfmt("%s.%ld", own, (long)getpid());
		if (!objects_index_write(tree, NULL, tmp) && !rename(tmp, own)) {
			ret = own;
			own = NULL;
		}
	}
	free(tree);
out:
	if (tmp)
		unlink(tmp);
	free(tmp);
	free(own);
	free(entry);
	return ret;
}

char *kbuild_system_map(const char *image)
{
	char *dir = xstrdup(image), *slash, *key, *own = NULL, *kept = NULL, *tmp = NULL;
	char *ret = NULL;

	slash = strrchr(dir, '/');
	if (!slash)
		goto out;
	*slash = '\0';
	own = xstrfmt("%s/" KBUILD_MAP_NAME, dir);
	if (!access(own, R_OK)) {
		adopt_extable(own);
		ret = own;
		own = NULL;
		goto out;
	}
	/* CACHE/builds/<key> -> CACHE/trees/<key>/System.map */
	slash = strrchr(dir, '/');
	if (!slash || slash - dir < 7 || strncmp(slash - 7, "/builds", 7))
		goto out;
	key = slash + 1;
	*(slash - 7) = '\0';
	kept = xstrfmt("%s/trees/%s/" KBUILD_MAP_NAME, dir, key);
	if (access(kept, R_OK))
		goto out;
	/* adopt it, by a rename, so a reader never sees half a map */
	tmp = xstrfmt("%s.%ld", own, (long)getpid());
	if (!kbuild_copy_file(kept, tmp) && !rename(tmp, own)) {
		adopt_extable(own);
		ret = own;
		own = NULL;
	} else {
		unlink(tmp);
		ret = kept;	/* the cache entry is not writable: read the tree's */
		kept = NULL;
	}
out:
	free(dir);
	free(own);
	free(kept);
	free(tmp);
	return ret;
}
