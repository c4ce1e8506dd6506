/* kbuild.h: build kernels with make O=, in a content-addressed cache. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KBUILD_H
#define KBUILD_H

#include <stdint.h>
#include <stdio.h>

#include "kbuild/farm.h"
#include "kbuild/elf-sizes.h"
#include "util/sha256.h"
#include "util/strvec.h"

struct kernel_source;
struct strbuf;

/*
 * The cache (shared by every experiment of a user) holds:
 *
 *   CACHE/builds/<key>/   a finished build: the image (bzImage, arm64's Image),
 *                         config, build.log, meta, System.map (the instruction
 *                         meter's map of the kernel's functions)
 *   CACHE/trees/<key>/    a whole object tree kept to seed later builds
 *   CACHE/tmp/objtree     the build in progress (one at a time: CACHE/build.lock)
 *
 * key = sha256 of (source identity, effective .config, compiler version,
 * make variables, and for another arch than the host's ARCH= and
 * CROSS_COMPILE=: plan/arch.h), never of the compiler wrapper (farm.h): the
 * same config built with or without ccache, distcc or icecc is the same
 * kernel, byte for byte (KBUILD_BUILD_USER, _HOST, _TIMESTAMP and _VERSION
 * are pinned), so its key means the same bytes wherever it was built.  A
 * build runs in CACHE/tmp/ and its result is renamed
 * into builds/ only when complete, so an interrupted or failed build is
 * never taken for a finished one and the next attempt starts clean.
 *
 * Every build is seeded from the nearest kept tree of the same source and
 * compiler (the one whose .config differs in the fewest symbols): it
 * starts from a copy (reflinked where the filesystem can), and kbuild's
 * fixdep rebuilds only what the changed symbols touch, in either
 * direction.  Every finished build's tree is kept; beyond
 * KBUILD_KEEP_TREES of one source and compiler (the trees that can seed
 * one another) the least recently built or used are removed.
 *
 * CACHE/build.lock (lockfile.h) is held while a build runs, by make and
 * everything it starts too: a kconfperf killed with -9 leaves its
 * compilers running, and the next build waits for them, or stops them
 * when their kconfperf is gone.  The build stage, every variant of a plan
 * in turn, is kbuild-variants.h.
 */
#define KBUILD_KEEP_TREES 8
struct kbuild_options {
	const struct kernel_source *source;
	const char *cache_dir;
	int jobs;		/* make -j; <= 0: the farm's slots or the CPUs (farm.h) */
	const char *arch;	/* plan/arch.h name; NULL: HARNESS_DEFAULT_ARCH */
	const char *cross_compile;	/* NULL: the arch's default (arch_cross_compile()) */
	const char *cc;		/* compiler; NULL: "gcc", "<cross_compile>gcc" */
	const char *cc_wrapper;	/* "ccache", "distcc", "icecc" (or a path to one), or NULL */
	struct strvec make_vars;	/* extra "VAR=value" for make; owned */
	double timeout;		/* seconds per build; 0: none */
	const char *log_dir;	/* where per-build logs are written */
	char *compiler_version;	/* set by kbuild_prepare(); owned */
	struct farm *farm;	/* cc_wrapper's, set by kbuild_prepare(); owned */
	char *compiler;		/* set by kbuild_prepare(); owned */
};
#define KBUILD_OPTIONS_INIT { .make_vars = STRVEC_INIT }

/*
 * Checks the arch and the (cross) compiler, reads the compiler version and
 * opens cc_wrapper's farm (farm_open()); 0 or -1 with a message.
 */
int kbuild_prepare(struct kbuild_options *o);
void kbuild_options_release(struct kbuild_options *o);

/* The cache key of an effective .config under these options. */
void kbuild_key(const struct kbuild_options *o, const char *config_text,
		char key[SHA256_HEX_SIZE]);

/*
 * What a key is the hash of, field by field: kbuild_key() of options is
 * kbuild_key_of() of theirs.  A cache entry's meta keeps them all (source,
 * compiler, cc, make_var and arch_var lines), so that an entry carried to
 * another host (cache-transfer.h) is checked against its own key.
 */
struct kbuild_key_inputs {
	const char *source_id;
	const char *config;
	const char *compiler_version;
	const char *cc;			/* the compiler program: "gcc" */
	const struct strvec *make_vars;	/* "VAR=value", in order */
	const struct strvec *arch_vars;	/* for another arch: ARCH=, CROSS_COMPILE= */
};
void kbuild_key_of(const struct kbuild_key_inputs *in, char key[SHA256_HEX_SIZE]);

struct kbuild_result {
	char key[SHA256_HEX_SIZE];
	int cached;		/* found finished in the cache, nothing built */
	int ok;			/* an image exists */
	double seconds;		/* the build's make time (the original's when cached) */
	int64_t bzimage_size;	/* of the image, whatever the arch calls it */
	int64_t vmlinux_size;
	/*
	 * vmlinux's text, data and bss (elf-sizes.h), -1 each when unknown (a
	 * cached build from before they were measured whose tree is gone).
	 */
	struct elf_sizes sections;
	char *image;		/* CACHE/builds/<key>/bzImage (arm64: Image) */
	char *log_path;
	char *log_tail;		/* last lines of the log when the build failed */
	char *seeded_from;	/* key of the seed tree, or NULL */
	/* How it was built (the original build's, when cached): */
	int jobs;		/* make -j */
	char *wrapper;		/* "ccache", "distcc", "icecc", or NULL */
	int has_cache_stats;	/* built through ccache: what it found in its cache */
	struct farm_stats cache_stats;
};
void kbuild_result_release(struct kbuild_result *r);

/* Whether a finished build of this key is in the cache. */
int kbuild_is_cached(const struct kbuild_options *o, const char *key);
/* Whether a seed tree of this key is in the cache. */
int kbuild_has_tree(const struct kbuild_options *o, const char *key);

/*
 * Builds config_text (a resolved .config) unless its key is already in the
 * cache.  name labels the log file.  The build is seeded from the nearest
 * kept tree (see above); seed_key, when not NULL, wins ties.
 * Returns 0 when the result (ok or a recorded failure) is in *out; -1 for
 * errors that are not the kernel's fault (no disk space, cannot write the
 * cache), with a message, leaving the cache consistent.
 */
int kbuild_build(const struct kbuild_options *o, const char *config_text,
		 const char *name, const char *seed_key, struct kbuild_result *out);

#define KBUILD_MAP_NAME "System.map"

/*
 * The System.map of the kernel whose cached image is at image
 * (CACHE/builds/<key>/bzImage): the entry's own; for an entry made before
 * the cache kept maps, the kept object tree's (CACHE/trees/<key>), which
 * is copied into the entry when it can be, with the exception table from
 * the tree's vmlinux; NULL when there is none (the tree was evicted).
 * malloc'd; nothing is printed but a vmlinux that cannot be read.
 */
char *kbuild_system_map(const char *image);

/*
 * The index of the objects of the kernel whose cached image is at image
 * (objects-index.h): the entry's own OBJECTS_INDEX_NAME, written when it
 * was built; for an older entry, written into it from its kept tree now;
 * NULL when neither can be had (the tree evicted, the entry not
 * writable).  malloc'd.
 */
char *kbuild_objects_index(const char *image);

#define KBUILD_EXTABLE_NAME "extable"

/*
 * The exception table's instructions (elf_extable_write()) of the kernel
 * whose System.map is at map: the file KBUILD_EXTABLE_NAME beside it, or
 * NULL when there is none (not x86_64, or a cache entry made before the
 * cache kept it and whose tree was evicted: the meter then takes a
 * callback at every rep string).  kbuild_system_map() writes it into an
 * entry from the kept tree's vmlinux when it can.  malloc'd.
 */
char *kbuild_extable_beside(const char *map);

/*
 * How many symbols two .config texts set differently (kconfig_diff_list()),
 * the distance by which the seed tree is chosen; -1 when one does not parse.
 */
long kbuild_tree_distance(const char *a_text, const char *b_text);

#endif
