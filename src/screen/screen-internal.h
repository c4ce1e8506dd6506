/* screen-internal.h: the screen engine's state, shared by screen.c and screen-order.c. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SCREEN_INTERNAL_H
#define SCREEN_INTERNAL_H

#include "screen/screen.h"

enum screen_phase {
	PHASE_SETUP,
	PHASE_SCREEN,
	PHASE_CONFIRM,
	PHASE_DONE,
};

struct edge {
	size_t later, earlier;
};

struct screen {
	struct screen_options opts;
	enum screen_phase phase;

	char **names;
	size_t nr;
	size_t *prefer;		/* preferred order, or NULL */
	char **excluded;	/* reasons, NULL when screened */
	struct edge *edges;
	size_t nr_edges, alloc_edges;

	size_t *order;		/* position -> option */
	size_t nr_order;
	size_t *position;	/* option -> position, SCREEN_NONE when excluded */

	struct screen_variant *variants;
	size_t nr_variants, alloc_variants;
	struct screen_node *nodes;
	size_t nr_nodes, alloc_nodes;

	size_t *found;
	size_t nr_found, alloc_found;

	struct screen_confirmation *confirm;
	size_t nr_confirm;
	/* The baseline's runs before the confirmations: theirs start after. */
	size_t base_start;
	struct stats_interaction interaction;
	int has_interaction;

	size_t *evidence;	/* nodes waiting for screen_set_evidence() */
	size_t nr_evidence, alloc_evidence;

	struct screen_want *wants;
	size_t nr_wants, alloc_wants;
	/* Variants handed out in the current step: screen_add_run() only takes these. */
	unsigned char *in_step;
	size_t alloc_in_step;
};

/*
 * screen-order.c: fixes s->order and s->position from the preferred order
 * and the "after" constraints (a stable topological sort).  0, or -1 with
 * an error naming an option on a cycle.
 */
int screen_sort_options(struct screen *s);

#endif
