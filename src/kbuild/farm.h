/* farm.h: builds through a compiler wrapper: ccache, distcc or icecc. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef FARM_H
#define FARM_H

#include <stddef.h>

struct strbuf;
struct strvec;

/*
 * --cc-wrapper names ccache, distcc or icecc, or a path to one of them
 * (the kind is the program's name).  A wrapper must not change what is
 * built: the cache key leaves it out (kbuild.h), KBUILD_BUILD_* are pinned,
 * and the make command line stays what it is without a wrapper.  So the
 * wrapper is not put in CC: kbuild records every compile command in its
 * .cmd files, and a seed tree built without the wrapper would have every
 * object rebuilt.  Instead make runs with a PATH whose first directory,
 * CACHE/wrappers/<kind>/, holds a link named like the compiler ("gcc") to
 * the wrapper, which runs the real compiler it finds further down PATH:
 * the wrappers' own masquerade directories (/usr/lib/ccache) work so.
 *
 * Everything else is the wrapper's own configuration, which make and the
 * wrapper inherit from kconfperf's environment: CCACHE_DIR, CCACHE_PREFIX
 * (ccache in front of distcc), DISTCC_HOSTS, ICECC_SCHEDULER, ICECC_VERSION
 * and the rest, or the wrappers' config files.
 *
 * make -j, when -j is not given: the farm's compile slots, at least the
 * local CPUs.
 *   ccache  the local CPUs
 *   distcc  `distcc -j`: the slots of the hosts DISTCC_HOSTS (or distcc's
 *           hosts file) lists
 *   icecc   the job slots of every compile server the scheduler lists
 *           (its text interface on the scheduler's port + 1) when
 *           ICECC_SCHEDULER names it as HOST[:PORT]; else the local CPUs
 *
 * ccache's counters for one build come from a statistics log of that build
 * alone (CCACHE_STATSLOG), so other users of the same ccache do not count.
 */

enum farm_kind {
	FARM_CCACHE = 1,
	FARM_DISTCC,
	FARM_ICECC,
};

struct farm {
	enum farm_kind kind;
	char *program;		/* absolute path of the wrapper */
	char *version;		/* first line of its --version */
	char *dir;		/* the masquerade directory, first in make's PATH */
	int slots;		/* the farm's compile slots; 0: not known */
	char *slots_from;	/* where slots came from: "distcc -j", "scheduler H:P" */
};

/* "ccache", "distcc", "icecc". */
const char *farm_kind_name(enum farm_kind kind);

/*
 * Opens the farm of wrapper (a name found in PATH, or a path): checks it
 * runs, reads its version and the farm's slots, and makes the masquerade
 * directory under cache_dir with a link named compiler (a name, not a
 * path).  Returns 0 with *out set (farm_free() frees it), or -1 with a
 * message: a wrapper that is none of the three, or cannot be run.
 */
int farm_open(struct farm **out, const char *wrapper, const char *compiler,
	      const char *cache_dir);
/* Frees f; NULL is fine. */
void farm_free(struct farm *f);

/* make's -j: jobs when > 0, else the farm's slots, at least cpus (f may be NULL). */
int farm_jobs(const struct farm *f, int jobs, int cpus);

/*
 * Adds what make's environment needs for the farm to env: PATH with the
 * masquerade directory first; for ccache, CCACHE_STATSLOG=stats_log; for
 * distcc, DISTCC_NO_REWRITE_CROSS=1 (distcc would call gcc
 * x86_64-linux-gnu-gcc, even for the "gcc --version" that kbuild records
 * in the config as CONFIG_CC_VERSION_TEXT: its servers run "gcc", which
 * must be the same gcc, as the key says).
 */
void farm_env(const struct farm *f, struct strvec *env, const char *stats_log);

/* What ccache did in one build: compiles found in the cache, compiled, not cacheable. */
struct farm_stats {
	long hits, misses, uncacheable;
};

/*
 * Counts the compiles of a ccache statistics log (CCACHE_STATSLOG: a
 * "# SOURCE" line per call, then one counter name per line): a call is a
 * hit (direct_cache_hit, preprocessed_cache_hit), a miss (cache_miss), or
 * uncacheable (anything else: a link, a --version, an unsupported option).
 */
void farm_parse_stats_log(struct farm_stats *out, const char *text);

/*
 * Reads the statistics log at path into *out and removes it.  Returns 0,
 * or -1 (no log: ccache never ran, *out zero) without a message.
 */
int farm_read_stats(struct farm_stats *out, const char *path);

/* "12/15 hits (80%)": hits of the cacheable calls; "no compiles" when none. */
void farm_format_stats(struct strbuf *out, const struct farm_stats *s);

/*
 * The compile slots in the text an icecc scheduler's "listcs" command
 * answers, one server a line, "name (ip:port) [arch] ... jobs=RUNNING/MAX
 * ...": the sum of MAX.  0 when it lists none.
 */
int farm_parse_listcs(const char *text);

#endif
