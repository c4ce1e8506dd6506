/* progress.h: how long work shows how far it has got: counts, elapsed time, time left. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stddef.h>

struct strbuf;

/*
 * Every long stage (building kernels, running them) says where it is the
 * same way, one line per item about to start:
 *
 *     [3/40] hackbench round 2/5 baseline (elapsed 1m12s, about 9m30s left)
 *
 * ("[3]" when the total is not known).  The time left is the remaining
 * items times an estimate per item: the caller's, or else the mean of the
 * items finished so far (none before the first has).  Durations read
 * "12s", "4m12s", "1h02m".
 *
 * PROGRESS_LINES prints that line as a note (usage.h: --quiet silences
 * it).  PROGRESS_TERMINAL rewrites it in place on stderr when stderr is
 * a terminal, cut to its width, and shows nothing otherwise: the caller
 * then says what each item gave, one line each (progress_in_place()
 * tells which).  Anything else printed while the in-place line is shown
 * must call progress_clear() first; at a fatal signal the line is ended,
 * so the shell's prompt starts clean.
 */
enum progress_mode {
	PROGRESS_LINES,
	PROGRESS_TERMINAL,
};

struct progress {
	int in_place;		/* PROGRESS_TERMINAL on a terminal */
	int lines;		/* PROGRESS_LINES */
	int shown;		/* the in-place line is on screen */
	size_t total;		/* items; 0 when not known */
	size_t done;		/* items finished */
	double start;		/* now_seconds() at progress_start() */
	double done_seconds;	/* what the finished items took */
};

/* Starts counting total items (0: not known); pair with progress_stop(). */
void progress_start(struct progress *p, enum progress_mode mode, size_t total);
/* Clears the line and forgets p (its signal cleanup). */
void progress_stop(struct progress *p);

/*
 * Shows the line for the next item (number done + 1), described by what;
 * per_item > 0 is the caller's estimate of each remaining item's time.
 */
void progress_show(struct progress *p, const char *what, double per_item);
/* The item finished, having taken seconds. */
void progress_done(struct progress *p, double seconds);
/* Takes the in-place line off the screen (it comes back with the next show). */
void progress_clear(struct progress *p);
/* Whether the line is rewritten in place (PROGRESS_TERMINAL on a terminal). */
int progress_in_place(const struct progress *p);

/* "[n/total] " or "[n] " */
void progress_add_count(const struct progress *p, struct strbuf *sb, size_t n);
/* "12s", "4m12s", "1h02m" */
void progress_add_duration(struct strbuf *sb, double seconds);

#endif
