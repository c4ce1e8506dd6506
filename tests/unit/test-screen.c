/* test-screen.c: unit tests for the sequential bifurcation engine, its simulator and effects tables. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "screen/screen-sim.h"
#include "screen/screen.h"
#include "util/strvec.h"
#include "util/strbuf.h"
#include "test-lib.h"
#include "util/wrapper.h"

/* A table of n options CONFIG_OPT<i>=y, all free but those in costs[]. */
static void make_table(struct screen_effects *fx, size_t n, const double *costs)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "CONFIG_OPT%zu=y,%g\n", i, costs ? costs[i] : 0.0);
	check_int(screen_effects_parse(fx, sb.buf, sb.len, "test.csv"), ==, 0);
	strbuf_release(&sb);
}

static struct screen *simulate(const struct screen_effects *fx, unsigned long seed,
			       enum screen_sim_order order)
{
	struct screen_sim_options o = SCREEN_SIM_OPTIONS_INIT;
	struct screen *s = NULL;

	o.seed = seed;
	o.order = order;
	check_int(screen_simulate(&s, fx, &o), ==, 0);
	return s;
}

static int found(const struct screen *s, size_t option)
{
	size_t i;

	for (i = 0; i < screen_nr_found(s); i++)
		if (screen_found(s, i) == option)
			return 1;
	return 0;
}

static void test_all_free_needs_two_builds(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	struct screen *s;

	make_table(&fx, 16, NULL);
	s = simulate(&fx, 1, SCREEN_ORDER_RANDOM);
	check_int(screen_builds(s), ==, 2);
	check_int(screen_nr_found(s), ==, 0);
	check_int(screen_nr_nodes(s), ==, 1);
	check_int(screen_node(s, 0)->decision, ==, SCREEN_DROPPED);
	check_int(screen_node(s, 0)->why, ==, SCREEN_WHY_BELOW);
	check_int(screen_nr_confirmations(s), ==, 0);
	check(screen_interaction(s) == NULL);
	screen_free(s);
	screen_effects_release(&fx);
}

static void test_one_costly_option_among_16(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	double costs[16] = { 0 };
	unsigned long seed;

	costs[11] = 20;
	make_table(&fx, 16, costs);
	for (seed = 1; seed <= 20; seed++) {
		struct screen *s = simulate(&fx, seed, SCREEN_ORDER_RANDOM);

		check_int(screen_nr_found(s), ==, 1);
		check(found(s, 11));
		/* Baseline, all, one split per level (log2 16 = 4), then alone. */
		check_int(screen_builds(s), <=, 2 + 4 + 1);
		check_int(screen_builds(s), >=, 2 + 3);
		check_int(screen_nr_confirmations(s), ==, 1);
		check_double(screen_confirmation(s, 0)->cost, 20, 0.1);
		check_int(screen_confirmation(s, 0)->cmp.marker, ==, '*');
		screen_free(s);
	}
	screen_effects_release(&fx);
}

static void test_costs_multiply(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	double costs[8] = { 0, 10, 0, 20, 0, 0, 50, 0 };
	const struct stats_interaction *in;
	const struct screen_confirmation *all;
	struct screen *s;

	make_table(&fx, 8, costs);
	s = simulate(&fx, 3, SCREEN_ORDER_GIVEN);
	/* The root group holds all three: 1.1 x 1.2 x 1.5 = 1.98. */
	check_double(screen_node(s, 0)->cost, 98, 0.02);
	check_int(screen_nr_found(s), ==, 3);
	check(found(s, 1) && found(s, 3) && found(s, 6));
	check_int(screen_nr_confirmations(s), ==, 4);
	all = screen_confirmation(s, 3);
	check(all->option == SCREEN_NONE);
	check_double(all->cost, 98, 0.02);
	in = screen_interaction(s);
	check(in != NULL);
	if (in) {
		check_double(in->ratio, 1, 0.02);
		check_int(in->marker, ==, ' ');
	}
	screen_free(s);
	screen_effects_release(&fx);
}

static void test_small_costs_add_up_in_a_group(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	double costs[4] = { 2.5, 2.5, 0, 0 };
	struct screen *s;
	size_t i;

	make_table(&fx, 4, costs);
	s = simulate(&fx, 1, SCREEN_ORDER_GIVEN);
	/* 1.025^2 - 1 = 5.06% is above 3%: split; neither alone is. */
	check_int(screen_node(s, 0)->decision, ==, SCREEN_SPLIT);
	check_int(screen_nr_found(s), ==, 0);
	for (i = 1; i < screen_nr_nodes(s); i++)
		check(screen_node(s, i)->decision != SCREEN_FOUND);
	screen_free(s);
	screen_effects_release(&fx);
}

static void test_zero_below(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	double costs[3] = { 1.9, 2.0, -4 };

	make_table(&fx, 3, costs);
	check_double(screen_sim_cost(&fx, 0, 2), 0, 0);
	check_double(screen_sim_cost(&fx, 1, 2), 2.0, 0);
	check_double(screen_sim_cost(&fx, 2, 2), 0, 0);
	check_double(screen_sim_cost(&fx, 0, 0), 1.9, 0);
	screen_effects_release(&fx);
}

/*
 * A hand-driven engine: each run of a variant is 10 x prod(1 + cost) times
 * a fixed small jitter, so the result depends on nothing but the inputs.
 * Returns the values given, one per line "variant run value", in rec.
 */
static void drive(struct screen *s, const double *costs, struct strbuf *rec)
{
	for (;;) {
		struct screen_step step;
		size_t i, k;

		if (screen_next(s, &step) || step.done)
			break;
		for (i = 0; i < step.nr; i++) {
			const struct screen_variant *v = screen_variant(s, step.wants[i].variant);
			double mean = 10;

			for (k = 0; k < v->nr_options; k++)
				mean *= 1 + costs[v->options[k]] / 100;
			for (k = v->nr_values; k < step.wants[i].runs; k++) {
				double jitter = (double)((k * 7 + step.wants[i].variant * 3) % 11) - 5;
				double x = mean * (1 + jitter / 1000);

				if (rec)
					strbuf_addf(rec, "%zu %zu %.17g\n", step.wants[i].variant, k, x);
				check_int(screen_add_run(s, step.wants[i].variant, x), ==, 0);
			}
		}
	}
}

/* Every variant holds the prerequisites of each of its options. */
static int closed(const struct screen *s, const size_t (*after)[2], size_t nr_after)
{
	size_t v, i, k, j;

	for (v = 0; v < screen_nr_variants(s); v++) {
		const struct screen_variant *var = screen_variant(s, v);

		for (i = 0; i < var->nr_options; i++)
			for (k = 0; k < nr_after; k++) {
				if (after[k][0] != var->options[i])
					continue;
				for (j = 0; j < var->nr_options; j++)
					if (var->options[j] == after[k][1])
						break;
				if (j == var->nr_options)
					return 0;
			}
	}
	return 1;
}

static void test_dependency_order(void)
{
	const char *names[6] = { "CONFIG_A=y", "CONFIG_B=y", "CONFIG_C=y",
				 "CONFIG_D=y", "CONFIG_E=y", "CONFIG_F=y" };
	/* E depends on B, B on F, A on E: and E is the costly one. */
	const size_t after[3][2] = { { 4, 1 }, { 1, 5 }, { 0, 4 } };
	const size_t prefer[6] = { 0, 1, 2, 3, 4, 5 };
	double costs[6] = { 0, 0, 0, 0, 40, 0 };
	struct screen *s = screen_new(names, 6, NULL);
	const size_t *order;
	size_t nr, i, pos[6];

	check_int(screen_prefer_order(s, prefer), ==, 0);
	for (i = 0; i < 3; i++)
		check_int(screen_after(s, after[i][0], after[i][1]), ==, 0);
	check_int(screen_start(s), ==, 0);
	order = screen_order(s, &nr);
	check_int(nr, ==, 6);
	for (i = 0; i < nr; i++)
		pos[order[i]] = i;
	for (i = 0; i < 3; i++)
		check_int(pos[after[i][0]], >, pos[after[i][1]]);
	/* Stable: C and D keep their place relative to each other. */
	check_int(pos[2], <, pos[3]);
	drive(s, costs, NULL);
	check_int(screen_nr_found(s), ==, 1);
	check_int(screen_found(s, 0), ==, 4);
	check(closed(s, after, 3));
	/* E alone is E with B and F, the options it must come after. */
	check_int(screen_nr_confirmations(s), ==, 1);
	check_int(screen_variant(s, screen_confirmation(s, 0)->variant)->nr_options, ==, 3);
	/* Groups are contiguous: children share their parent's bounds. */
	for (i = 0; i < screen_nr_nodes(s); i++) {
		const struct screen_node *n = screen_node(s, i);

		if (n->decision != SCREEN_SPLIT)
			continue;
		check_int(screen_node(s, n->child[0])->lo, ==, n->lo);
		check_int(screen_node(s, n->child[0])->hi, ==, screen_node(s, n->child[1])->lo);
		check_int(screen_node(s, n->child[1])->hi, ==, n->hi);
	}
	screen_free(s);
}

static void test_order_cycle_and_exclusions(void)
{
	const char *names[3] = { "CONFIG_A=y", "CONFIG_B=y", "CONFIG_C=y" };
	const double costs[3] = { 0, 0, 50 };
	struct screen *s = screen_new(names, 3, NULL);
	size_t nr;

	test_capture_start();
	check_int(screen_after(s, 0, 1), ==, 0);
	check_int(screen_after(s, 1, 0), ==, 0);
	check_int(screen_after(s, 2, 2), ==, -1);
	check_int(screen_start(s), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf,
		     "error: screen: the order constraints form a cycle through 'CONFIG_") != NULL);
	screen_free(s);

	/* C comes after the cycle A <-> B: the message names A or B, not C. */
	s = screen_new(names, 3, NULL);
	test_capture_start();
	check_int(screen_after(s, 2, 0), ==, 0);
	check_int(screen_after(s, 0, 1), ==, 0);
	check_int(screen_after(s, 1, 0), ==, 0);
	check_int(screen_start(s), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "'CONFIG_C=y'") == NULL);
	screen_free(s);

	/* C after B after A, B left out: C still comes after A. */
	s = screen_new(names, 3, NULL);
	{
		const size_t prefer[3] = { 2, 1, 0 };
		const size_t *order;

		check_int(screen_prefer_order(s, prefer), ==, 0);
		check_int(screen_after(s, 2, 1), ==, 0);
		check_int(screen_after(s, 1, 0), ==, 0);
		check_int(screen_exclude(s, 1, "no-op: depends on X"), ==, 0);
		check_int(screen_start(s), ==, 0);
		order = screen_order(s, &nr);
		check_int(nr, ==, 2);
		check_int(order[0], ==, 0);
		check_int(order[1], ==, 2);
		check_str(screen_excluded(s, 1), "no-op: depends on X");
		check(screen_excluded(s, 0) == NULL);
		/* C alone brings A, through the excluded B. */
		drive(s, costs, NULL);
		check_int(screen_nr_found(s), ==, 1);
		check_int(screen_found(s, 0), ==, 2);
		check_int(screen_nr_confirmations(s), ==, 1);
		check_int(screen_variant(s, screen_confirmation(s, 0)->variant)->nr_options, ==, 2);
	}
	screen_free(s);
}

static void test_protocol_errors_and_failures(void)
{
	const char *names[4] = { "CONFIG_A=y", "CONFIG_B=y", "CONFIG_C=y", "CONFIG_D=y" };
	double costs[4] = { 0, 0, 30, 0 };
	struct screen *s = screen_new(names, 4, NULL);
	struct screen_step step;
	size_t i;

	test_capture_start();
	check_int(screen_next(s, &step), ==, -1);
	check_int(screen_start(s), ==, 0);
	check_int(screen_after(s, 0, 1), ==, -1);
	check_int(screen_next(s, &step), ==, 0);
	check_int(step.done, ==, 0);
	check_int(step.nr, ==, 2);	/* baseline and all */
	check_int(step.wants[0].build, ==, 1);
	check_int(screen_add_run(s, 7, 1.0), ==, -1);
	check_int(screen_add_run(s, 0, -1.0), ==, -1);
	check_int(screen_add_run(s, 0, NAN), ==, -1);
	for (i = 0; i < step.wants[0].runs; i++)
		check_int(screen_add_run(s, 0, 10 + 0.01 * i), ==, 0);
	check_int(screen_add_run(s, 0, 10), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, "already has the 5 runs asked for") != NULL);

	/* "all" fails to build: the root cannot be decided. */
	check_int(screen_variant_failed(s, step.wants[1].variant, "build failed"), ==, 0);
	drive(s, costs, NULL);
	check_int(screen_node(s, 0)->decision, ==, SCREEN_UNRESOLVED);
	check_int(screen_nr_unresolved(s), ==, 4);
	check_int(screen_nr_found(s), ==, 0);
	check_int(screen_builds(s), ==, 2);
	screen_free(s);
}

static void test_replay_gives_the_same_screen(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	double costs[32] = { 0 };
	struct screen *a, *b;
	size_t i;

	costs[5] = 8;
	costs[17] = 2.8;
	costs[18] = 2.9;
	costs[30] = 60;
	make_table(&fx, 32, costs);
	a = simulate(&fx, 42, SCREEN_ORDER_RANDOM);
	b = simulate(&fx, 42, SCREEN_ORDER_RANDOM);
	check_int(screen_builds(a), ==, screen_builds(b));
	check_int(screen_runs(a), ==, screen_runs(b));
	check_int(screen_nr_nodes(a), ==, screen_nr_nodes(b));
	check_int(screen_nr_found(a), ==, screen_nr_found(b));
	for (i = 0; i < screen_nr_found(a) && i < screen_nr_found(b); i++)
		check_int(screen_found(a, i), ==, screen_found(b, i));
	for (i = 0; i < screen_nr_variants(a); i++) {
		const struct screen_variant *va = screen_variant(a, i), *vb = screen_variant(b, i);

		check_int(va->nr_values, ==, vb->nr_values);
		check(!memcmp(va->values, vb->values, va->nr_values * sizeof(double)));
	}
	check(found(a, 5) && found(a, 30));

	/*
	 * Resuming: a new engine whose requests are answered from a's stored
	 * runs asks for exactly the same variants and runs.
	 */
	{
		const size_t *order;
		const char **names = xcalloc(fx.nr, sizeof(*names));
		size_t nr;
		struct screen *r;

		for (i = 0; i < fx.nr; i++)
			names[i] = fx.items[i].name;
		r = screen_new(names, fx.nr, NULL);
		order = screen_order(a, &nr);
		check_int(screen_prefer_order(r, order), ==, 0);
		check_int(screen_start(r), ==, 0);
		for (;;) {
			struct screen_step step;

			if (screen_next(r, &step) || step.done)
				break;
			for (i = 0; i < step.nr; i++) {
				const struct screen_variant *vr = screen_variant(r, step.wants[i].variant);
				const struct screen_variant *va = screen_variant(a, step.wants[i].variant);
				size_t k;

				check_str(vr->name, va->name);
				check_int(step.wants[i].runs, <=, va->nr_values);
				for (k = vr->nr_values; k < step.wants[i].runs && k < va->nr_values; k++)
					screen_add_run(r, step.wants[i].variant, va->values[k]);
			}
		}
		check_int(screen_builds(r), ==, screen_builds(a));
		check_int(screen_runs(r), ==, screen_runs(a));
		check_int(screen_nr_found(r), ==, screen_nr_found(a));
		screen_free(r);
		free(names);
	}
	screen_free(a);
	screen_free(b);

	/* Another seed, another order. */
	a = simulate(&fx, 1, SCREEN_ORDER_RANDOM);
	b = simulate(&fx, 2, SCREEN_ORDER_RANDOM);
	{
		size_t na, nb;
		const size_t *oa = screen_order(a, &na), *ob = screen_order(b, &nb);

		check(memcmp(oa, ob, na * sizeof(*oa)) != 0);
	}
	screen_free(a);
	screen_free(b);
	screen_effects_release(&fx);
}

static void test_higher_is_better(void)
{
	const char *names[4] = { "CONFIG_A=y", "CONFIG_B=y", "CONFIG_C=y", "CONFIG_D=y" };
	/* A throughput: option C takes 20% off. */
	double costs[4] = { 0, 0, -20, 0 };
	struct screen_options o = SCREEN_OPTIONS_INIT;
	struct screen *s;

	o.higher_is_better = 1;
	s = screen_new(names, 4, &o);
	check_int(screen_start(s), ==, 0);
	drive(s, costs, NULL);
	check_int(screen_nr_found(s), ==, 1);
	check_int(screen_found(s, 0), ==, 2);
	check_double(screen_node(s, 0)->cost, 20, 0.01);
	screen_free(s);
}

static void test_cap_decides_near_the_threshold(void)
{
	const char *names[2] = { "CONFIG_A=y", "CONFIG_B=y" };
	double costs[2] = { 2.95, 0 };
	struct screen_options o = SCREEN_OPTIONS_INIT;
	struct screen *s;

	o.runs_max = 20;
	s = screen_new(names, 2, &o);
	check_int(screen_start(s), ==, 0);
	drive(s, costs, NULL);
	/* 2.95% is within the interval at 20 runs: decided by the estimate. */
	check_int(screen_node(s, 0)->why, ==, SCREEN_WHY_CAP_BELOW);
	check_int(screen_node(s, 0)->looks, >, 1);
	check_int(screen_variant(s, 0)->nr_values, ==, 20);
	check_int(screen_nr_found(s), ==, 0);
	screen_free(s);
}

static void test_effects_formats(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	static const char published[] =
		"# comment\n"
		"variant,mean_s,sd_s\n"
		"NO_DEBUG,10.0,0.1\n"
		"ALL_DEBUG,30.0,0.4\n"
		"CONFIG_PROVE_LOCKING=y,19.0,0.5\n"
		"\n"
		"CONFIG_LOCKDEP_BITS=16,10.1,0.2\r\n";
	static const char simple[] = "CONFIG_A=y,5\n# x\nCONFIG_B=m, -1.5 \n";

	check_int(screen_effects_parse(&fx, published, strlen(published), "p.csv"), ==, 0);
	check_int(fx.nr, ==, 2);
	check_int(fx.published, ==, 1);
	check_double(fx.baseline, 10, 0);
	check_str(fx.items[0].name, "CONFIG_PROVE_LOCKING=y");
	check_double(fx.items[0].cost, 90, 1e-9);
	check_str(fx.items[1].name, "CONFIG_LOCKDEP_BITS=16");
	check_double(fx.items[1].cost, 1, 1e-9);
	screen_effects_release(&fx);

	check_int(screen_effects_parse(&fx, simple, strlen(simple), "s.csv"), ==, 0);
	check_int(fx.nr, ==, 2);
	check_double(fx.items[1].cost, -1.5, 0);
	screen_effects_release(&fx);
}

static void bad_table(const char *text, const char *expect)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;

	test_capture_start();
	check_int(screen_effects_parse(&fx, text, strlen(text), "bad.csv"), ==, -1);
	test_capture_stop();
	if (!check(strstr(test_messages.buf, expect) != NULL))
		fprintf(stderr, "# got: %s", test_messages.buf);
	check_int(fx.nr, ==, 0);
}

static void test_effects_errors(void)
{
	bad_table("CONFIG_A=y,1\nCONFIG_B=y\n",
		  "error: bad.csv:2: 'CONFIG_B=y' is not CONFIG_NAME=VALUE,COST_PERCENT");
	bad_table("CONFIG_A=y,1\nCONFIG_B=y,lots\n",
		  "error: bad.csv:2: cost 'lots' is not a percentage above -100");
	bad_table("#\nFOO=y,1\n", "error: bad.csv:2: 'FOO=y,1' is not CONFIG_NAME");
	bad_table("CONFIG_A=y,1\nCONFIG_A=m,2\n",
		  "error: bad.csv:2: 'CONFIG_A' is listed twice (first on line 1)");
	bad_table("CONFIG_A=y,-100\n", "bad.csv:1: cost '-100'");
	bad_table("CONFIG_A=y,1,\n", "bad.csv:1:");
	bad_table("variant,mean_s,sd_s\nCONFIG_A=y,1,0.1\n",
		  "error: bad.csv: no baseline row (NO_DEBUG or baseline)");
	bad_table("variant,mean_s,sd_s\nNO_DEBUG,0,0.1\n",
		  "error: bad.csv:2: mean '0' is not a positive number");
	bad_table("variant,mean_s,sd_s\nNO_DEBUG,1,0.1\nSOMETHING,2\n",
		  "error: bad.csv:3: 'SOMETHING' is not CONFIG_NAME=VALUE, NO_DEBUG or ALL_DEBUG");
	bad_table("variant,median\n", "error: bad.csv:1: expected the header 'variant,mean_s,sd_s'");
	bad_table("# nothing\n\n", "error: bad.csv: no options");
	bad_table("CONFIG_A=\"x y\",1\n", "bad.csv:1:");
}

static void test_related_order(void)
{
	static const char table[] =
		"CONFIG_PROVE_LOCKING=y,1\n"
		"CONFIG_DEBUG_LOCK_ALLOC=y,1\n"
		"CONFIG_EXT4_DEBUG=y,1\n"
		"CONFIG_LOCK_STAT=y,1\n"
		"CONFIG_DEBUG_KMEMLEAK=y,1\n";
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	const size_t *order;
	struct screen *s;
	size_t nr;

	check_int(screen_effects_parse(&fx, table, strlen(table), "r.csv"), ==, 0);
	s = simulate(&fx, 1, SCREEN_ORDER_RELATED);
	order = screen_order(s, &nr);
	/* EXT4_DEBUG, KMEMLEAK, LOCK_ALLOC, LOCK_STAT, PROVE_LOCKING */
	check_int(order[0], ==, 2);
	check_int(order[1], ==, 4);
	check_int(order[2], ==, 1);
	check_int(order[3], ==, 3);
	check_int(order[4], ==, 0);
	screen_free(s);
	screen_effects_release(&fx);
}

/*
 * The kernels' changed symbols, as the real screen sees them: PROVE_LOCKING
 * changes a superset of what LOCK_STAT does, PRINTK_TIME nothing of theirs.
 * Chained: PROVE_LOCKING first (given first), LOCK_STAT next to it, and
 * then, the smaller first, LOCK_STAT before PROVE_LOCKING.
 */
static void test_related_order_by_symbols(void)
{
	static const char *const syms[][6] = {
		{ "DEBUG_LOCK_ALLOC", "LOCKDEP", "PROVE_LOCKING", "TRACE_IRQFLAGS", NULL },
		{ "PRINTK_TIME", NULL },
		{ "DEBUG_KOBJECT", NULL },
		{ "DEBUG_LOCK_ALLOC", "LOCKDEP", "LOCK_STAT", NULL },
	};
	struct strvec sym[4];
	size_t order[4], i, j;

	for (i = 0; i < 4; i++) {
		strvec_init(&sym[i]);
		for (j = 0; syms[i][j]; j++)
			strvec_push(&sym[i], syms[i][j]);
	}
	screen_related_order(sym, 4, order);
	check_int(order[0], ==, 3);
	check_int(order[1], ==, 0);
	check_int(order[2], ==, 1);
	check_int(order[3], ==, 2);
	/* Nothing shared: the given order. */
	screen_related_order(sym + 1, 2, order);
	check_int(order[0], ==, 0);
	check_int(order[1], ==, 1);
	for (i = 0; i < 4; i++)
		strvec_clear(&sym[i]);
}

/*
 * The host slows by 30% after the root is judged.  A group that reused the
 * baseline's old runs would charge that to option A; the engine asks for
 * fresh runs of both ends instead, so A is dropped and only B is found.
 */
static void test_groups_judge_fresh_runs(void)
{
	static const char *const names[] = { "CONFIG_A=y", "CONFIG_B=y" };
	struct screen_options o = SCREEN_OPTIONS_INIT;
	struct screen *s;
	struct screen_step step;
	double host = 1.0;
	unsigned k = 0;
	size_t i;

	o.threshold = 10;
	o.confirm = 0;
	s = screen_new(names, 2, &o);
	check_int(screen_start(s), ==, 0);
	for (;;) {
		check_int(screen_next(s, &step), ==, 0);
		if (step.done)
			break;
		if (screen_nr_nodes(s) > 1)
			host = 1.3;	/* after the root */
		for (i = 0; i < step.nr; i++) {
			const struct screen_variant *v = screen_variant(s, step.wants[i].variant);
			int has_b = v->nr_options && v->options[v->nr_options - 1] == 1;

			while (screen_variant(s, step.wants[i].variant)->nr_values < step.wants[i].runs)
				check_int(screen_add_run(s, step.wants[i].variant,
							 host * (has_b ? 1.5 : 1.0) *
							 (1 + 0.002 * (k++ % 5))), ==, 0);
		}
	}
	check_int(screen_nr_found(s), ==, 1);
	check(found(s, 1));
	check(!found(s, 0));
	/* the baseline got fresh runs for the group it starts */
	check_int(screen_variant(s, 0)->nr_values, >=, 10);
	screen_free(s);
}


/* A functions table in a scratch file, loaded against fx. */
static void load_functions(struct screen_functions *fn, const struct screen_effects *fx,
			   const char *text)
{
	char path[] = "/tmp/kcp-test-functions.XXXXXX";
	int fd = mkstemp(path);
	struct strbuf sb = STRBUF_INIT;

	check(fd >= 0);
	strbuf_addstr(&sb, text);
	check_int(write(fd, sb.buf, sb.len), ==, (long long)sb.len);
	close(fd);
	check_int(screen_functions_load(fn, fx, path), ==, 0);
	unlink(path);
	strbuf_release(&sb);
}

static struct screen *simulate_with(const struct screen_effects *fx,
				    const struct screen_functions *fn, unsigned long seed)
{
	struct screen_sim_options o = SCREEN_SIM_OPTIONS_INIT;
	struct screen *s = NULL;

	o.seed = seed;
	o.order = SCREEN_ORDER_GIVEN;
	o.sd = 0.02;		/* the meter's few parts in ten thousand */
	o.functions = fn;
	check_int(screen_simulate(&s, fx, &o), ==, 0);
	return s;
}

/*
 * 24 options, 3 costly, each changing code only it can: attribution finds
 * the three with no more than half the builds sequential bifurcation takes,
 * and clears the rest with what the evidence says of them.
 */
static void test_attribution_saves_builds(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	struct screen_functions fn = SCREEN_FUNCTIONS_INIT;
	double costs[24] = { 0 };
	struct screen *with, *without;
	struct screen_verdict v;
	size_t i;

	costs[3] = 40;
	costs[11] = 12;
	costs[19] = 25;
	make_table(&fx, 24, costs);
	load_functions(&fn, &fx, "# leaf options: code of their own\n"
		       "CONFIG_OPT3=y opt3_check opt3_hook\nCONFIG_OPT11=y opt11_fn\n");
	with = simulate_with(&fx, &fn, 1);
	without = simulate_with(&fx, NULL, 1);
	for (i = 0; i < 24; i++) {
		check_int(found(with, i), ==, costs[i] > 0);
		check_int(found(without, i), ==, costs[i] > 0);
	}
	printf("# attribution: %zu builds, sequential bifurcation %zu\n", screen_builds(with),
	       screen_builds(without));
	check_int(2 * screen_builds(with), <=, screen_builds(without));
	/* the attributed ones were still measured alone */
	check_int(screen_nr_confirmations(with), ==, 4);
	screen_option_verdict(with, 3, &v);
	check_int(v.kind, ==, SCREEN_VERDICT_FOUND);
	screen_option_verdict(with, 5, &v);
	check(v.kind == SCREEN_VERDICT_CLEARED || v.kind == SCREEN_VERDICT_BELOW);
	check(v.kind != SCREEN_VERDICT_CLEARED || (v.attributed && v.value == 0));
	screen_free(with);
	screen_free(without);
	screen_functions_release(&fn);
	screen_effects_release(&fx);
}

/*
 * Two options whose costs are in the same shared code are candidates
 * both: their group is split between them, and both are found; an option
 * whose cost is all behaviour (~) leaves its group to the middle split and
 * is found all the same.
 */
static void test_attribution_shared_and_behaviour(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	struct screen_functions fn = SCREEN_FUNCTIONS_INIT;
	double costs[16] = { 0 };
	struct screen *s;
	size_t i, splits_between = 0;

	costs[2] = 30;
	costs[9] = 20;
	costs[13] = 15;
	make_table(&fx, 16, costs);
	load_functions(&fn, &fx, "CONFIG_OPT2=y spin_lock lock_acquire\n"
		       "CONFIG_OPT9=y spin_lock debug_check\n"
		       "CONFIG_OPT13=y ~schedule ~__switch_to\n");
	s = simulate_with(&fx, &fn, 1);
	for (i = 0; i < 16; i++)
		check_int(found(s, i), ==, costs[i] > 0);
	for (i = 0; i < screen_nr_nodes(s); i++) {
		const struct screen_node *n = screen_node(s, i);

		if (n->decision == SCREEN_SPLIT && n->nr_candidates >= 2)
			splits_between++;
	}
	check_int(splits_between, >=, 1);
	screen_free(s);
	screen_functions_release(&fn);
	screen_effects_release(&fx);
}

/*
 * An attribution the confirmation contradicts: A's code changed, B's cost
 * is all behaviour in the same group, so the evidence names A alone; A
 * measured alone costs far less than the group, which is split after all
 * and B found too.
 */
static void test_attribution_contradicted(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	struct screen_functions fn = SCREEN_FUNCTIONS_INIT;
	double costs[8] = { 0 };
	struct screen *s;
	size_t i, contradicted = 0;

	costs[1] = 10;
	costs[2] = 30;
	make_table(&fx, 8, costs);
	load_functions(&fn, &fx, "CONFIG_OPT1=y a_check\nCONFIG_OPT2=y ~schedule\n"
		       "CONFIG_OPT0=y o0\nCONFIG_OPT3=y o3\nCONFIG_OPT4=y o4\n"
		       "CONFIG_OPT5=y o5\nCONFIG_OPT6=y o6\nCONFIG_OPT7=y o7\n");
	s = simulate_with(&fx, &fn, 1);
	check(found(s, 1));
	check(found(s, 2));
	check_int(screen_nr_found(s), ==, 2);
	for (i = 0; i < screen_nr_nodes(s); i++)
		contradicted += screen_node(s, i)->why == SCREEN_WHY_CONTRADICTED;
	check_int(contradicted, >=, 1);
	screen_free(s);
	screen_functions_release(&fn);
	screen_effects_release(&fx);
}

static void test_functions_table_errors(void)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	struct screen_functions fn = SCREEN_FUNCTIONS_INIT;
	char path[] = "/tmp/kcp-test-functions.XXXXXX";
	int fd;

	make_table(&fx, 2, NULL);
	fd = mkstemp(path);
	check(fd >= 0);
	check_int(write(fd, "CONFIG_OPT0=y f\nCONFIG_NOPE=y g\n", 32), ==, 32);
	close(fd);
	test_capture_start();
	check_int(screen_functions_load(&fn, &fx, path), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, ":2: 'CONFIG_NOPE=y' is not an option") != NULL);
	fd = open(path, O_WRONLY | O_TRUNC);
	check_int(write(fd, "CONFIG_OPT1=y 9bad\n", 19), ==, 19);
	close(fd);
	test_capture_start();
	check_int(screen_functions_load(&fn, &fx, path), ==, -1);
	test_capture_stop();
	check(strstr(test_messages.buf, ":1: '9bad' is not a function name") != NULL);
	unlink(path);
	screen_effects_release(&fx);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_all_free_needs_two_builds);
	TEST(test_one_costly_option_among_16);
	TEST(test_costs_multiply);
	TEST(test_small_costs_add_up_in_a_group);
	TEST(test_zero_below);
	TEST(test_dependency_order);
	TEST(test_order_cycle_and_exclusions);
	TEST(test_protocol_errors_and_failures);
	TEST(test_replay_gives_the_same_screen);
	TEST(test_higher_is_better);
	TEST(test_cap_decides_near_the_threshold);
	TEST(test_effects_formats);
	TEST(test_effects_errors);
	TEST(test_related_order);
	TEST(test_related_order_by_symbols);
	TEST(test_groups_judge_fresh_runs);
	TEST(test_attribution_saves_builds);
	TEST(test_attribution_shared_and_behaviour);
	TEST(test_attribution_contradicted);
	TEST(test_functions_table_errors);
	strbuf_release(&test_messages);
	return test_done();
}
