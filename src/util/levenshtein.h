/* levenshtein.h: edit distance, to suggest the command a user meant. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef LEVENSHTEIN_H
#define LEVENSHTEIN_H

/* Number of single-character insertions, deletions and substitutions turning a into b. */
int levenshtein(const char *a, const char *b);

#endif
