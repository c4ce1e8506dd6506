/* strvec.h: a growable NULL-terminated array of strings, for argv and lists. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef STRVEC_H
#define STRVEC_H

#include <stddef.h>

/*
 * v is always NULL-terminated (v[nr] == NULL) and owns its strings; it can
 * be passed straight to execvp().  STRVEC_INIT needs no allocation.
 */
struct strvec {
	const char **v;
	size_t nr;
	size_t alloc;
};

extern const char *strvec_empty[];
#define STRVEC_INIT { strvec_empty, 0, 0 }

void strvec_init(struct strvec *sv);
/* Copies s; returns the copy. */
const char *strvec_push(struct strvec *sv, const char *s);
const char *strvec_pushf(struct strvec *sv, const char *fmt, ...)
	__attribute__((__format__(__printf__, 2, 3)));
/* Pushes every string of a NULL-terminated list. */
void strvec_pushv(struct strvec *sv, const char **items);
void strvec_pop(struct strvec *sv);
/* Splits s on any of the characters in seps, skipping empty fields. */
void strvec_split(struct strvec *sv, const char *s, const char *seps);
/* Pushes a copy of s unless sv already holds it; returns 1 if pushed. */
int strvec_push_unique(struct strvec *sv, const char *s);
/* Index of s in sv, or -1. */
int strvec_find(const struct strvec *sv, const char *s);
void strvec_clear(struct strvec *sv);

#endif
