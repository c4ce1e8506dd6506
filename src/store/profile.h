/* profile.h: a per-function instruction profile: names, counts, and their compact stored form. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PROFILE_H
#define PROFILE_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

/*
 * What the instruction meter (plugin/, run/meter.h) counted in
 * the kernel's functions over one phase of a run: one entry per function
 * name with its instructions.  Names are System.map's; a build's compiler
 * clones (foo.isra.0, foo.constprop.0, foo.part.0, foo.cold) and the many
 * static functions of one name are separate symbols there, so comparing two
 * builds needs profile_normalize(), which sums each base name.
 *
 * Counts are doubles: a stored run's counts are whole instructions, a
 * variant's profile (the mean over runs, per operation) is not.
 */
struct profile_entry {
	char *name;
	double count;
};

struct profile {
	struct profile_entry *v;
	size_t nr, alloc;
};
#define PROFILE_INIT { 0 }

void profile_init(struct profile *p);
/* Frees the entries and leaves p empty. */
void profile_release(struct profile *p);
/* Appends (name, count); the same name may appear twice until profile_merge(). */
void profile_add(struct profile *p, const char *name, double count);
/* Sorts by name and sums the entries of one name. */
void profile_merge(struct profile *p);
/* Renames every entry to its base name (profile_base_len()) and merges. */
void profile_normalize(struct profile *p);
/* Multiplies every count by factor. */
void profile_scale(struct profile *p, double factor);
/* Adds every entry of from into p (then merged). */
void profile_add_all(struct profile *p, const struct profile *from);
/* The sum of the counts. */
double profile_total(const struct profile *p);
/* Sorts by count, largest first, ties by name. */
void profile_sort_by_count(struct profile *p);
/* The entry of name in a merged (name-sorted) profile, or NULL. */
const struct profile_entry *profile_find(const struct profile *p, const char *name);

/*
 * Whether name (any clone suffix aside) is one of the idle loop's own
 * functions (idle-functions.h), which "busy" leaves out.
 */
int profile_is_idle(const char *name);
/* The sum of the counts of every entry but the idle loop's. */
double profile_busy(const struct profile *p);

/*
 * The length of name's base: up to its first '.', which strips what the
 * compiler appends to a clone (.isra.N, .constprop.N, .part.N, .cold,
 * .llvm.N): C function names have no dot.
 */
size_t profile_base_len(const char *name);

/*
 * The stored form of a profile whose names are numbered by the caller (a
 * table of names, store.h): ids[i] is the number of p->v[i].name, and the
 * counts are whole.  profile_encode() appends to out the pairs sorted by
 * id, each as the id's difference from the one before and the count,
 * both as LEB128 varints, deflated with zlib; a PROVE_LOCKING boot's
 * 3,000-odd functions take a few kilobytes.  0, or -1 with a message.
 */
int profile_encode(struct strbuf *out, const struct profile *p, const int64_t *ids);
/*
 * Decodes data[0..len) into nr pairs: (*ids)[i] and (*counts)[i], both
 * malloc'd.  A blob that does not decode (truncated, trailing bytes, more
 * than PROFILE_MAX_ENTRIES) is an error naming what: 0, or -1 with a
 * message.
 */
#define PROFILE_MAX_ENTRIES 1000000
int profile_decode(const void *data, size_t len, int64_t **ids, uint64_t **counts, size_t *nr);

#endif
