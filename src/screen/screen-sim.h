/* screen-sim.h: tables of option costs, and the screen engine run against them instead of kernels. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef SCREEN_SIM_H
#define SCREEN_SIM_H

#include <stddef.h>

#include "screen/screen.h"
#include "util/strvec.h"

/*
 * An effects table: each option's true cost, in percent.  Two CSV formats
 * are read, with '#' comment lines and blank lines anywhere:
 *
 *   CONFIG_X=y,2.5                    the simple format: setting, cost in percent
 *
 *   variant,mean_s,sd_s               the published format (a header line first):
 *   NO_DEBUG,12.362,0.093             the baseline's mean (also "baseline"),
 *   ALL_DEBUG,30.134,0.402            all options measured together (also "all",
 *   CONFIG_X=y,12.694,0.104           read and not used); each option alone.
 *
 * In the published format an option's cost is (mean / baseline mean - 1) x
 * 100.  A setting is CONFIG_NAME=VALUE, NAME of letters, digits and '_',
 * VALUE without spaces, commas or quotes; each option appears once.  At most
 * SCREEN_EFFECTS_MAX options.
 */
#define SCREEN_EFFECTS_MAX 100000

struct screen_effect {
	char *name;	/* "CONFIG_X=y" */
	double cost;	/* percent, as read or computed */
};

struct screen_effects {
	struct screen_effect *items;
	size_t nr, alloc;
	/* The published baseline mean, 1 for the simple format. */
	double baseline;
	int published;
};
#define SCREEN_EFFECTS_INIT { NULL, 0, 0, 1.0, 0 }

/*
 * Reads a table from len bytes of text; path names it in messages.  Returns
 * 0, or -1 after an error "PATH:LINE: ..." saying what was expected; out is
 * then empty.
 */
int screen_effects_parse(struct screen_effects *out, const char *text, size_t len,
			 const char *path);
/* Reads the file at path (at most 16 MiB) with screen_effects_parse(). */
int screen_effects_load(struct screen_effects *out, const char *path);
void screen_effects_release(struct screen_effects *fx);

/*
 * A functions table, for simulating attribution (screen.h): which kernel
 * functions each option changes, one option a line, '#' comments and blank
 * lines anywhere:
 *
 *   CONFIG_X=y FUNC ...      X changes these functions, its cost shared
 *                            equally among them.  A function that several
 *                            options list is in code each of them can
 *                            change (a header every file includes);
 *   ~FUNC                    one that none of them can change although X
 *                            makes it run more (behaviour: the scheduler,
 *                            an unwinder called from X's code).
 *
 * An option the table does not list changes one function of its own (a
 * leaf option's code).  The settings must be the effects table's.
 */
struct screen_functions {
	struct strvec *funcs;	/* per effects option: names, "~NAME" unowned */
	size_t nr;
};
#define SCREEN_FUNCTIONS_INIT { NULL, 0 }
/* Reads path against fx's options: 0, or -1 with "PATH:LINE: ..." said. */
int screen_functions_load(struct screen_functions *out, const struct screen_effects *fx,
			  const char *path);
void screen_functions_release(struct screen_functions *fn);

/* The cost the simulation uses: the table's, or 0 when below zero_below percent. */
double screen_sim_cost(const struct screen_effects *fx, size_t i, double zero_below);

enum screen_sim_order {
	/* A new random order for every seed. */
	SCREEN_ORDER_RANDOM,
	/* The table's order, as the options were given. */
	SCREEN_ORDER_GIVEN,
	/*
	 * Related options together: sorted by name without CONFIG_, a leading
	 * DEBUG_ and the value (CONFIG_DEBUG_LOCK_ALLOC=y is LOCK_ALLOC, beside
	 * LOCK_STAT), the table's order among equals.
	 */
	SCREEN_ORDER_RELATED,
};

/* "random", "given", "related". */
const char *screen_sim_order_name(enum screen_sim_order order);
/* The order called name: 0, or -1 (no message) when there is none. */
int screen_sim_order_parse(const char *name, enum screen_sim_order *out);

struct screen_sim_options {
	/*
	 * Run-to-run noise, the sd of log values in percent: each run is
	 * baseline x prod(1 + cost_i) x exp(N(0, sd/100)).
	 */
	double sd;
	/* Percent: smaller table costs are taken as 0. */
	double zero_below;
	unsigned long seed;
	enum screen_sim_order order;
	struct screen_options screen;
	/*
	 * With a functions table, the engine attributes (screen.h's
	 * opts.attribute): its evidence is what the meter and the object
	 * indices would say of the table's functions.  NULL: it does not.
	 */
	const struct screen_functions *functions;
};
#define SCREEN_SIM_OPTIONS_INIT { 0.75, 2.0, 1, SCREEN_ORDER_RANDOM, SCREEN_OPTIONS_INIT, NULL }

/*
 * Screens the table's options with simulated runs: the seed drives the
 * order (SCREEN_ORDER_RANDOM) and every run's noise (GSL's MT19937), so a
 * seed always gives the same result.  The engine's option i is the table's.
 * Returns 0 with *out the finished engine (the caller frees it with
 * screen_free()), or -1 after an error.
 */
int screen_simulate(struct screen **out, const struct screen_effects *fx,
		    const struct screen_sim_options *opts);

/* Figures over many seeds: seeds opts->seed, opts->seed + 1, ... */
struct screen_sim_summary {
	size_t seeds;
	double builds_mean, runs_mean;
	size_t builds_min, builds_max, runs_min, runs_max;
	/* Per table option: in how many seeds it was found. */
	size_t *found;
	size_t nr_options;
	/*
	 * Over the options costing at least `detect` percent: the smallest
	 * share of seeds in which one was found (NaN when there is none);
	 * over the options of zero (simulated) cost, the largest share in
	 * which one was found.
	 */
	double detect;
	size_t nr_detect, nr_zero;
	double detect_min_rate, false_max_rate, false_mean_rate;
};
#define SCREEN_SIM_SUMMARY_INIT { 0 }

int screen_sim_many(struct screen_sim_summary *out, const struct screen_effects *fx,
		    const struct screen_sim_options *opts, size_t seeds, double detect);
void screen_sim_summary_release(struct screen_sim_summary *sum);

#endif
