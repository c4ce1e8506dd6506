/* screen-report.c: a screen's result and bifurcation tree, as text and as JSON. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <string.h>

#include "util/json.h"
#include "screen/screen-report.h"
#include "screen/screen.h"
#include "util/strbuf.h"

static void add_cost(struct strbuf *sb, double cost, double lo, double hi)
{
	stats_format_change(sb, cost, 1);
	strbuf_addch(sb, ' ');
	if (isnan(lo) || isnan(hi)) {
		strbuf_addstr(sb, "[n/a]");
		return;
	}
	strbuf_addch(sb, '[');
	stats_format_change(sb, lo, 1);
	strbuf_addstr(sb, " .. ");
	stats_format_change(sb, hi, 1);
	strbuf_addch(sb, ']');
}

/* Pads sb from column `from` to `width` columns. */
static void pad(struct strbuf *sb, size_t from, size_t width)
{
	size_t used = sb->len - from;

	strbuf_addchars(sb, ' ', used < width ? width - used : 1);
}

static const struct screen_node *found_node(const struct screen *s, size_t option)
{
	size_t i;

	for (i = 0; i < screen_nr_nodes(s); i++) {
		const struct screen_node *n = screen_node(s, i);

		if (screen_node_option(s, n) == option)
			return n;
	}
	return NULL;
}

static void text_found(struct strbuf *sb, const struct screen *s)
{
	size_t i, nr = screen_nr_found(s);

	strbuf_addf(sb, "found %zu option%s costing more than %.1f%%%s\n", nr,
		    nr == 1 ? "" : "s", screen_get_options(s)->threshold,
		    nr ? " (in the screen, on top of the options before it; then alone):" : "");
	for (i = 0; i < nr; i++) {
		size_t opt = screen_found(s, i), k, start = sb->len;
		const struct screen_node *n = found_node(s, opt);

		strbuf_addf(sb, "    %s", screen_option_name(s, opt));
		pad(sb, start, 44);
		if (n)
			add_cost(sb, n->cost, n->cost_lo, n->cost_hi);
		for (k = 0; k < screen_nr_confirmations(s); k++) {
			const struct screen_confirmation *c = screen_confirmation(s, k);

			if (c->option != opt)
				continue;
			strbuf_addstr(sb, "   alone ");
			add_cost(sb, c->cost, c->cost_lo, c->cost_hi);
			strbuf_addf(sb, " %c", c->cmp.marker);
		}
		strbuf_rtrim(sb);
		strbuf_addch(sb, '\n');
	}
}

static void text_all_found(struct strbuf *sb, const struct screen *s)
{
	const struct stats_interaction *in = screen_interaction(s);
	size_t k;

	for (k = 0; k < screen_nr_confirmations(s); k++) {
		const struct screen_confirmation *c = screen_confirmation(s, k);

		if (c->option != SCREEN_NONE)
			continue;
		strbuf_addstr(sb, "all found together: ");
		add_cost(sb, c->cost, c->cost_lo, c->cost_hi);
		strbuf_addf(sb, " %c", c->cmp.marker);
		strbuf_rtrim(sb);
		strbuf_addch(sb, '\n');
	}
	if (!in)
		return;
	strbuf_addstr(sb, "product of the costs alone: ");
	add_cost(sb, (in->predicted - 1) * 100, (in->predicted_lo - 1) * 100,
		 (in->predicted_hi - 1) * 100);
	strbuf_addf(sb, "; measured / predicted %.3f [%.3f .. %.3f] %c",
		    in->ratio, in->ratio_lo, in->ratio_hi, in->marker);
	strbuf_rtrim(sb);
	strbuf_addch(sb, '\n');
}

static void text_variants(struct strbuf *sb, const struct screen *s)
{
	size_t i, header = 0, wide = 0;

	for (i = 0; i < screen_nr_options(s); i++) {
		const char *why = screen_excluded(s, i);

		if (!why)
			continue;
		if (!header++)
			strbuf_addstr(sb, "not screened:\n");
		strbuf_addf(sb, "    %s: %s\n", screen_option_name(s, i), why);
	}
	header = 0;
	for (i = 0; i < screen_nr_variants(s); i++) {
		const struct screen_variant *v = screen_variant(s, i);

		if (!v->failed && !v->note)
			continue;
		if (!header++)
			strbuf_addstr(sb, "variants that failed or resolved differently:\n");
		strbuf_addf(sb, "    %s: %s\n", v->name, v->failed ? v->failure : v->note);
	}
	for (i = 0; i < screen_nr_nodes(s); i++) {
		const struct screen_node *n = screen_node(s, i);
		size_t nr;

		if (n->why != SCREEN_WHY_CAP_WIDE)
			continue;
		if (!wide++)
			strbuf_addf(sb, "groups still uncertain at %zu runs were split, options "
				    "left undecided (more runs would save builds):\n",
				    screen_get_options(s)->runs_max);
		if (n->decision != SCREEN_UNDECIDED)
			continue;
		strbuf_addf(sb, "    %s: undecided, ",
			    screen_option_name(s, screen_order(s, &nr)[n->lo]));
		add_cost(sb, n->cost, n->cost_lo, n->cost_hi);
		strbuf_addch(sb, '\n');
	}
	if (screen_nr_unresolved(s))
		strbuf_addf(sb, "%zu option%s in unresolved groups %s not screened\n",
			    screen_nr_unresolved(s), screen_nr_unresolved(s) == 1 ? "" : "s",
			    screen_nr_unresolved(s) == 1 ? "was" : "were");
}

/* The verdict of one option in words: "found +40.1% [..]", "below: at most +0.4%" ... */
static void add_verdict(struct strbuf *sb, const struct screen *s, const struct screen_verdict *v)
{
	switch (v->kind) {
	case SCREEN_VERDICT_FOUND:
		strbuf_addstr(sb, v->attributed ? "found by attribution, its group " : "found ");
		add_cost(sb, v->value, v->lo, v->hi);
		break;
	case SCREEN_VERDICT_BELOW:
		strbuf_addstr(sb, "below the threshold: at most ");
		stats_format_change(sb, v->hi, 1);
		strbuf_addstr(sb, " (its group's bound)");
		break;
	case SCREEN_VERDICT_CLEARED:
		strbuf_addstr(sb, "cleared by attribution: ");
		if (isnan(v->value))
			strbuf_addstr(sb, "no function only it can change changed");
		else {
			stats_format_change(sb, v->value, 2);
			strbuf_addstr(sb, " in functions only it can change (attributed, not measured)");
		}
		break;
	default:
		strbuf_addstr(sb, screen_verdict_name(v->kind));
		break;
	}
	(void)s;
}

/* Every screened option and what the screen said of it, in screen order. */
static void text_options(struct strbuf *sb, const struct screen *s)
{
	size_t nr, i;
	const size_t *order = screen_order(s, &nr);

	if (!nr)
		return;
	strbuf_addstr(sb, "every screened option, as the screen decided it (percent on top of the "
		      "options before it):\n");
	for (i = 0; i < nr; i++) {
		struct screen_verdict v;
		size_t start = sb->len;

		screen_option_verdict(s, order[i], &v);
		strbuf_addf(sb, "    %zu %s", i + 1, screen_option_name(s, order[i]));
		pad(sb, start, 48);
		add_verdict(sb, s, &v);
		strbuf_rtrim(sb);
		strbuf_addch(sb, '\n');
	}
}

static void text_node(struct strbuf *sb, const struct screen *s, size_t i)
{
	const struct screen_node *n = screen_node(s, i);
	size_t start = sb->len, nr, k;
	const size_t *order = screen_order(s, &nr);

	strbuf_addchars(sb, ' ', 4 + 2 * n->depth);
	if (n->hi - n->lo == 1)
		strbuf_addf(sb, "%zu %s", n->hi, screen_option_name(s, order[n->lo]));
	else
		strbuf_addf(sb, "%zu-%zu (%zu)", n->lo + 1, n->hi, n->hi - n->lo);
	pad(sb, start, 52);
	if (n->looks)
		add_cost(sb, n->cost, n->cost_lo, n->cost_hi);
	else
		strbuf_addstr(sb, "not measured");
	strbuf_addf(sb, "  %zu/%zu runs  %s", n->cmp.n_base, n->cmp.n_variant,
		    screen_decision_name(n->decision));
	if (n->why != SCREEN_WHY_NONE)
		strbuf_addf(sb, ": %s", screen_why_text(n->why));
	if (n->attributed != SCREEN_NONE)
		strbuf_addf(sb, " (%s)", screen_option_name(s, order[n->attributed]));
	strbuf_addch(sb, '\n');
	if (n->evidence == 2) {
		strbuf_addchars(sb, ' ', 6 + 2 * n->depth);
		strbuf_addf(sb, "evidence: %zu of %zu members can own the change", n->nr_candidates,
			    n->hi - n->lo);
		for (k = 0; k < n->nr_candidates; k++)
			strbuf_addf(sb, "%s%s", k ? ", " : " (",
				    screen_option_name(s, order[n->candidates[k]]));
		strbuf_addstr(sb, n->nr_candidates ? ")" : "");
		if (n->evidence_text)
			strbuf_addf(sb, ": %s", n->evidence_text);
		strbuf_addch(sb, '\n');
	}
	for (k = 0; k < 2; k++)
		if (n->child[k] != SCREEN_NONE)
			text_node(sb, s, n->child[k]);
}

void screen_report_text(struct strbuf *sb, const struct screen *s)
{
	size_t nr;

	screen_order(s, &nr);
	strbuf_addf(sb, "screened %zu of %zu options: %zu builds (one at a time: %zu), %zu runs\n",
		    nr, screen_nr_options(s), screen_builds(s), nr + 1, screen_runs(s));
	text_found(sb, s);
	text_all_found(sb, s);
	text_variants(sb, s);
	text_options(sb, s);
	if (!screen_nr_nodes(s))
		return;
	strbuf_addstr(sb, "bifurcation tree (group LO-HI of the screen order: its cost on top of\n"
		      "the first LO-1 options, and the runs of those two variants when decided):\n");
	text_node(sb, s, 0);
}

static void json_cost(struct json_writer *jw, double cost, double lo, double hi)
{
	jw_object_double(jw, "cost", cost);
	jw_object_double(jw, "cost_lo", lo);
	jw_object_double(jw, "cost_hi", hi);
}

static void json_marker(struct json_writer *jw, char marker)
{
	char m[2] = { marker, '\0' };

	jw_object_string(jw, "marker", m);
}

static void json_found(struct json_writer *jw, const struct screen *s)
{
	size_t i, k;

	jw_object_inline_begin_array(jw, "found");
	for (i = 0; i < screen_nr_found(s); i++)
		jw_array_string(jw, screen_option_name(s, screen_found(s, i)));
	jw_end(jw);

	jw_object_inline_begin_array(jw, "undecided");
	for (i = 0; i < screen_nr_nodes(s); i++) {
		const struct screen_node *n = screen_node(s, i);
		size_t nr;

		if (n->decision == SCREEN_UNDECIDED)
			jw_array_string(jw, screen_option_name(s, screen_order(s, &nr)[n->lo]));
	}
	jw_end(jw);

	jw_object_inline_begin_array(jw, "found_details");
	for (i = 0; i < screen_nr_found(s); i++) {
		size_t opt = screen_found(s, i);
		const struct screen_node *n = found_node(s, opt);

		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "name", screen_option_name(s, opt));
		jw_object_inline_begin_object(jw, "screen");
		json_cost(jw, n ? n->cost : NAN, n ? n->cost_lo : NAN, n ? n->cost_hi : NAN);
		jw_end(jw);
		for (k = 0; k < screen_nr_confirmations(s); k++)
			if (screen_confirmation(s, k)->option == opt)
				break;
		if (k < screen_nr_confirmations(s)) {
			const struct screen_confirmation *c = screen_confirmation(s, k);

			jw_object_inline_begin_object(jw, "alone");
			jw_object_string(jw, "variant", screen_variant(s, c->variant)->name);
			json_cost(jw, c->cost, c->cost_lo, c->cost_hi);
			jw_object_double(jw, "q", c->cmp.q);
			json_marker(jw, c->cmp.marker);
			jw_end(jw);
		} else {
			jw_object_null(jw, "alone");
		}
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_all_found(struct json_writer *jw, const struct screen *s)
{
	const struct stats_interaction *in = screen_interaction(s);
	size_t k;

	for (k = 0; k < screen_nr_confirmations(s); k++)
		if (screen_confirmation(s, k)->option == SCREEN_NONE)
			break;
	if (k == screen_nr_confirmations(s)) {
		jw_object_null(jw, "all_found");
		return;
	}
	jw_object_inline_begin_object(jw, "all_found");
	json_cost(jw, screen_confirmation(s, k)->cost, screen_confirmation(s, k)->cost_lo,
		  screen_confirmation(s, k)->cost_hi);
	json_marker(jw, screen_confirmation(s, k)->cmp.marker);
	if (in) {
		char m[2] = { in->marker, '\0' };

		jw_object_double(jw, "predicted", (in->predicted - 1) * 100);
		jw_object_double(jw, "measured_over_predicted", in->ratio);
		jw_object_double(jw, "measured_over_predicted_lo", in->ratio_lo);
		jw_object_double(jw, "measured_over_predicted_hi", in->ratio_hi);
		jw_object_string(jw, "interaction_marker", m);
	}
	jw_end(jw);
}

static void json_tree(struct json_writer *jw, const struct screen *s)
{
	size_t i, nr;
	const size_t *order = screen_order(s, &nr);

	jw_object_inline_begin_array(jw, "tree");
	for (i = 0; i < screen_nr_nodes(s); i++) {
		const struct screen_node *n = screen_node(s, i);

		jw_array_inline_begin_object(jw);
		if (n->parent == SCREEN_NONE)
			jw_object_null(jw, "parent");
		else
			jw_object_intmax(jw, "parent", (intmax_t)n->parent);
		jw_object_intmax(jw, "depth", n->depth);
		jw_object_intmax(jw, "lo", (intmax_t)n->lo);
		jw_object_intmax(jw, "hi", (intmax_t)n->hi);
		jw_object_string(jw, "option",
				 n->hi - n->lo == 1 ? screen_option_name(s, order[n->lo]) : NULL);
		jw_object_string(jw, "from", screen_variant(s, n->from)->name);
		jw_object_string(jw, "to", screen_variant(s, n->to)->name);
		jw_object_intmax(jw, "runs_from", (intmax_t)n->cmp.n_base);
		jw_object_intmax(jw, "runs_to", (intmax_t)n->cmp.n_variant);
		jw_object_intmax(jw, "looks", n->looks);
		json_cost(jw, n->cost, n->cost_lo, n->cost_hi);
		jw_object_double(jw, "p", n->looks ? n->cmp.welch.p : NAN);
		jw_object_string(jw, "decision", screen_decision_name(n->decision));
		jw_object_string(jw, "why", screen_why_text(n->why));
		jw_object_string(jw, "attributed", n->attributed == SCREEN_NONE ? NULL :
				 screen_option_name(s, order[n->attributed]));
		if (n->evidence == 2) {
			jw_object_inline_begin_object(jw, "evidence");
			jw_object_inline_begin_array(jw, "candidates");
			for (size_t k = 0; k < n->nr_candidates; k++)
				jw_array_string(jw, screen_option_name(s, order[n->candidates[k]]));
			jw_end(jw);
			jw_object_string(jw, "text", n->evidence_text);
			jw_end(jw);
		} else {
			jw_object_null(jw, "evidence");
		}
		jw_end(jw);
	}
	jw_end(jw);
}

/* "options": every option, in the table's order, with what the screen said of it. */
static void json_options(struct json_writer *jw, const struct screen *s)
{
	size_t i;

	jw_object_inline_begin_array(jw, "options_verdicts");
	for (i = 0; i < screen_nr_options(s); i++) {
		struct screen_verdict v;

		screen_option_verdict(s, i, &v);
		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "name", screen_option_name(s, i));
		jw_object_string(jw, "verdict", screen_verdict_name(v.kind));
		jw_object_bool(jw, "attributed", v.attributed);
		jw_object_double(jw, "value", v.value);
		jw_object_double(jw, "lo", v.lo);
		jw_object_double(jw, "hi", v.hi);
		if (v.node == SCREEN_NONE)
			jw_object_null(jw, "node");
		else
			jw_object_intmax(jw, "node", (intmax_t)v.node);
		jw_object_string(jw, "reason", screen_excluded(s, i));
		jw_end(jw);
	}
	jw_end(jw);
}

void screen_report_json(struct json_writer *jw, const struct screen *s)
{
	size_t i, nr;

	screen_order(s, &nr);
	jw_object_intmax(jw, "options", (intmax_t)screen_nr_options(s));
	jw_object_intmax(jw, "screened", (intmax_t)nr);
	jw_object_intmax(jw, "builds", (intmax_t)screen_builds(s));
	jw_object_intmax(jw, "one_at_a_time_builds", (intmax_t)nr + 1);
	jw_object_intmax(jw, "runs", (intmax_t)screen_runs(s));
	jw_object_double(jw, "threshold", screen_get_options(s)->threshold);
	json_found(jw, s);
	json_all_found(jw, s);

	jw_object_inline_begin_array(jw, "excluded");
	for (i = 0; i < screen_nr_options(s); i++) {
		if (!screen_excluded(s, i))
			continue;
		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "name", screen_option_name(s, i));
		jw_object_string(jw, "reason", screen_excluded(s, i));
		jw_end(jw);
	}
	jw_end(jw);
	jw_object_intmax(jw, "unresolved", (intmax_t)screen_nr_unresolved(s));

	jw_object_inline_begin_array(jw, "variants");
	for (i = 0; i < screen_nr_variants(s); i++) {
		const struct screen_variant *v = screen_variant(s, i);

		jw_array_inline_begin_object(jw);
		jw_object_string(jw, "name", v->name);
		jw_object_intmax(jw, "options", (intmax_t)v->nr_options);
		jw_object_intmax(jw, "runs", (intmax_t)v->nr_values);
		jw_object_string(jw, "failed", v->failed ? v->failure : NULL);
		jw_object_string(jw, "note", v->note);
		jw_end(jw);
	}
	jw_end(jw);
	json_options(jw, s);
	json_tree(jw, s);
}
