/* screen-sim.c: effects tables and the screen engine answered with simulated runs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "screen/screen-sim.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define EFFECTS_MAX_BYTES ((size_t)16 << 20)

void screen_effects_release(struct screen_effects *fx)
{
	size_t i;

	for (i = 0; i < fx->nr; i++)
		free(fx->items[i].name);
	free(fx->items);
	fx->items = NULL;
	fx->nr = fx->alloc = 0;
	fx->baseline = 1.0;
	fx->published = 0;
}

/* A whole field as a finite number. */
static int parse_number(const char *s, double *out)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !isfinite(*out))
		return -1;
	return 0;
}

/* CONFIG_NAME=VALUE, as screen-sim.h describes. */
static int valid_setting(const char *s)
{
	const char *p;

	if (!skip_prefix(s, "CONFIG_", &p) || !*p || *p == '=')
		return 0;
	for (; *p && *p != '='; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	if (*p++ != '=' || !*p)
		return 0;
	for (; *p; p++)
		if (isspace((unsigned char)*p) || *p == '"' || *p == '\'' || *p == ',')
			return 0;
	return 1;
}

/* The NAME of CONFIG_NAME=VALUE has this length. */
static size_t symbol_len(const char *setting)
{
	const char *eq = strchr(setting, '=');

	return eq ? (size_t)(eq - setting) : strlen(setting);
}

static int add_effect(struct screen_effects *fx, const char *name, double cost,
		      const char *path, size_t line, const size_t *lines)
{
	size_t i, len = symbol_len(name);

	for (i = 0; i < fx->nr; i++)
		if (symbol_len(fx->items[i].name) == len &&
		    !strncmp(fx->items[i].name, name, len))
			return error("%s:%zu: '%.*s' is listed twice (first on line %zu)",
				     path, line, (int)len, name, lines[i]);
	if (fx->nr >= SCREEN_EFFECTS_MAX)
		return error("%s:%zu: more than %d options", path, line, SCREEN_EFFECTS_MAX);
	ALLOC_GROW(fx->items, fx->nr + 1, fx->alloc);
	fx->items[fx->nr].name = xstrdup(name);
	fx->items[fx->nr].cost = cost;
	fx->nr++;
	return 0;
}

/* The comma-separated fields of line, each trimmed; empty ones kept. */
static void split_fields(struct strvec *fields, const char *line)
{
	struct strbuf f = STRBUF_INIT;
	const char *p = line, *comma;

	strvec_clear(fields);
	for (;;) {
		comma = strchr(p, ',');
		strbuf_reset(&f);
		strbuf_add(&f, p, comma ? (size_t)(comma - p) : strlen(p));
		strbuf_trim(&f);
		strvec_push(fields, f.buf);
		if (!comma)
			break;
		p = comma + 1;
	}
	strbuf_release(&f);
}

int screen_effects_parse(struct screen_effects *out, const char *text, size_t len,
			 const char *path)
{
	struct screen_effects fx = SCREEN_EFFECTS_INIT;
	struct strbuf line = STRBUF_INIT;
	struct strvec fields = STRVEC_INIT;
	size_t *lines = NULL, alloc_lines = 0;
	double *means = NULL, sd;
	size_t alloc_means = 0, lineno = 0, pos = 0, base_line = 0;
	int header_seen = 0, ret = -1;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		double num;

		lineno++;
		strbuf_reset(&line);
		strbuf_add(&line, text + pos, end - pos);
		pos = nl ? end + 1 : len;
		strbuf_trim(&line);
		if (!line.len || line.buf[0] == '#')
			continue;
		if (memchr(line.buf, '\0', line.len)) {
			error("%s:%zu: a NUL byte; this is not a text table", path, lineno);
			goto out;
		}
		split_fields(&fields, line.buf);
		if (!header_seen && !fx.nr && !strcmp(fields.v[0], "variant")) {
			if (fields.nr < 2 || strcmp(fields.v[1], "mean_s")) {
				error("%s:%zu: expected the header 'variant,mean_s,sd_s'", path, lineno);
				goto out;
			}
			header_seen = 1;
			fx.published = 1;
			continue;
		}
		header_seen = 1;

		if (fx.published) {
			const char *name = fields.v[0];

			if (fields.nr < 2 || fields.nr > 3) {
				error("%s:%zu: expected 'VARIANT,MEAN[,SD]', got %zu fields",
				      path, lineno, fields.nr);
				goto out;
			}
			if (parse_number(fields.v[1], &num) || num <= 0) {
				error("%s:%zu: mean '%s' is not a positive number",
				      path, lineno, fields.v[1]);
				goto out;
			}
			if (fields.nr == 3 && (parse_number(fields.v[2], &sd) || sd < 0)) {
				error("%s:%zu: sd '%s' is not a number of at least 0",
				      path, lineno, fields.v[2]);
				goto out;
			}
			if (!strcmp(name, "NO_DEBUG") || !strcmp(name, "baseline")) {
				if (base_line) {
					error("%s:%zu: a second baseline row (first on line %zu)",
					      path, lineno, base_line);
					goto out;
				}
				fx.baseline = num;
				base_line = lineno;
				continue;
			}
			if (!strcmp(name, "ALL_DEBUG") || !strcmp(name, "all"))
				continue;
			if (!valid_setting(name)) {
				error("%s:%zu: '%s' is not CONFIG_NAME=VALUE, NO_DEBUG or ALL_DEBUG",
				      path, lineno, name);
				goto out;
			}
			/* Costs need the baseline, which may come later: keep the mean. */
			ALLOC_GROW(means, fx.nr + 1, alloc_means);
			means[fx.nr] = num;
			num = 0;
		} else {
			if (fields.nr != 2 || !valid_setting(fields.v[0])) {
				error("%s:%zu: '%s' is not CONFIG_NAME=VALUE,COST_PERCENT",
				      path, lineno, line.buf);
				goto out;
			}
			if (parse_number(fields.v[1], &num) || num <= -100) {
				error("%s:%zu: cost '%s' is not a percentage above -100",
				      path, lineno, fields.v[1]);
				goto out;
			}
		}
		ALLOC_GROW(lines, fx.nr + 1, alloc_lines);
		lines[fx.nr] = lineno;
		if (add_effect(&fx, fields.v[0], num, path, lineno, lines))
			goto out;
	}
	if (fx.published && !base_line) {
		error("%s: no baseline row (NO_DEBUG or baseline)", path);
		goto out;
	}
	if (!fx.nr) {
		error("%s: no options", path);
		goto out;
	}
	if (fx.published) {
		size_t i;

		for (i = 0; i < fx.nr; i++)
			fx.items[i].cost = (means[i] / fx.baseline - 1) * 100;
	}
	*out = fx;
	memset(&fx, 0, sizeof(fx));
	ret = 0;
out:
	screen_effects_release(&fx);
	strbuf_release(&line);
	strvec_clear(&fields);
	free(lines);
	free(means);
	return ret;
}

int screen_effects_load(struct screen_effects *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = -1;

	if (strbuf_read_file_max(&sb, path, EFFECTS_MAX_BYTES) < 0)
		goto out;
	ret = screen_effects_parse(out, sb.buf, sb.len, path);
out:
	strbuf_release(&sb);
	return ret;
}

void screen_functions_release(struct screen_functions *fn)
{
	for (size_t i = 0; fn->funcs && i < fn->nr; i++)
		strvec_clear(&fn->funcs[i]);
	free(fn->funcs);
	fn->funcs = NULL;
	fn->nr = 0;
}

/* A C identifier, or ~ and one. */
static int valid_function(const char *s)
{
	if (*s == '~')
		s++;
	if (!*s || (!isalpha((unsigned char)*s) && *s != '_'))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return 0;
	return 1;
}

int screen_functions_load(struct screen_functions *out, const struct screen_effects *fx,
			  const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct strvec lines = STRVEC_INIT, words = STRVEC_INIT;
	size_t i, k, opt;
	int ret = -1;

	out->nr = fx->nr;
	out->funcs = xcalloc(fx->nr ? fx->nr : 1, sizeof(*out->funcs));
	for (i = 0; i < fx->nr; i++)
		strvec_init(&out->funcs[i]);
	if (strbuf_read_file_max(&sb, path, EFFECTS_MAX_BYTES) < 0)
		goto out;
	strvec_split(&lines, sb.buf, "\n");
	for (i = 0; i < lines.nr; i++) {
		const char *line = lines.v[i];

		while (isspace((unsigned char)*line))
			line++;
		if (!*line || *line == '#')
			continue;
		strvec_clear(&words);
		strvec_split(&words, line, " \t\r");
		for (opt = 0; opt < fx->nr && strcmp(fx->items[opt].name, words.v[0]); opt++)
			;
		if (opt == fx->nr) {
			error("%s:%zu: '%s' is not an option of the table of costs", path, i + 1,
			      words.v[0]);
			goto out;
		}
		if (out->funcs[opt].nr) {
			error("%s:%zu: %s is listed twice", path, i + 1, words.v[0]);
			goto out;
		}
		if (words.nr < 2) {
			error("%s:%zu: expected '%s FUNCTION ...' (the functions it changes)", path,
			      i + 1, words.v[0]);
			goto out;
		}
		for (k = 1; k < words.nr; k++) {
			if (!valid_function(words.v[k])) {
				error("%s:%zu: '%s' is not a function name (or ~ and one)", path, i + 1,
				      words.v[k]);
				goto out;
			}
			strvec_push(&out->funcs[opt], words.v[k]);
		}
	}
	ret = 0;
out:
	if (ret)
		screen_functions_release(out);
	strvec_clear(&lines);
	strvec_clear(&words);
	strbuf_release(&sb);
	return ret;
}

/* Option i's functions: the table's, or one of its own. */
static void functions_of(const struct screen_effects *fx, const struct screen_functions *fn,
			 size_t i, struct strvec *out)
{
	strvec_clear(out);
	if (fn && i < fn->nr && fn->funcs[i].nr)
		strvec_pushv(out, fn->funcs[i].v);
	else
		strvec_pushf(out, "%s:own", fx->items[i].name);
}

/*
 * The evidence the meter and the object indices would give for node i
 * (screen.h, "Attribution"): each member's cost spread over its
 * functions; a function's owners the members listing it (without ~); a
 * candidate a member whose owned functions changed by a quarter of the
 * threshold or more.
 */
static int sim_evidence(struct screen *s, size_t i, const struct screen_effects *fx,
			const struct screen_sim_options *opts)
{
	const struct screen_node *n = screen_node(s, i);
	size_t nr_order, k, j, m = n->hi - n->lo, nr_c = 0;
	const size_t *order = screen_order(s, &nr_order);
	struct strvec *f = xcalloc(m, sizeof(*f)), names = STRVEC_INIT;
	double *delta, *reach = xcalloc(m, sizeof(*reach)), *owned = xcalloc(m, sizeof(*owned));
	size_t *cand = xcalloc(m, sizeof(*cand));
	int ret;

	for (k = 0; k < m; k++) {
		strvec_init(&f[k]);
		functions_of(fx, opts->functions, order[n->lo + k], &f[k]);
		for (j = 0; j < f[k].nr; j++)
			strvec_push_unique(&names, f[k].v[j] + (f[k].v[j][0] == '~'));
	}
	delta = xcalloc(names.nr ? names.nr : 1, sizeof(*delta));
	for (k = 0; k < m; k++) {
		double cost = screen_sim_cost(fx, order[n->lo + k], opts->zero_below);

		for (j = 0; j < f[k].nr; j++)
			delta[strvec_find(&names, f[k].v[j] + (f[k].v[j][0] == '~'))] +=
				cost / (double)f[k].nr;
	}
	for (size_t x = 0; x < names.nr; x++) {
		size_t owners = 0, last = 0;

		if (!delta[x])
			continue;
		for (k = 0; k < m; k++)
			if (strvec_find(&f[k], names.v[x]) >= 0) {
				reach[k] += fabs(delta[x]);
				owners++;
				last = k;
			}
		if (owners == 1)
			owned[last] += delta[x];
	}
	for (k = 0; k < m; k++)
		if (reach[k] > 0 && reach[k] >= opts->screen.threshold / 4)
			cand[nr_c++] = order[n->lo + k];
	ret = screen_set_evidence(s, i, cand, nr_c, owned, NULL);
	for (k = 0; k < m; k++)
		strvec_clear(&f[k]);
	free(f);
	strvec_clear(&names);
	free(delta);
	free(reach);
	free(owned);
	free(cand);
	return ret;
}

double screen_sim_cost(const struct screen_effects *fx, size_t i, double zero_below)
{
	double c = fx->items[i].cost;

	return c < zero_below ? 0 : c;
}

/* The family key of SCREEN_ORDER_RELATED, e.g. LOCK_ALLOC for CONFIG_DEBUG_LOCK_ALLOC=y. */
static void family_key(struct strbuf *sb, const char *setting)
{
	const char *p = setting;

	skip_prefix(p, "CONFIG_", &p);
	skip_prefix(p, "DEBUG_", &p);
	strbuf_reset(sb);
	strbuf_add(sb, p, symbol_len(p));
}

struct keyed {
	char *key;
	size_t index;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void related_order(size_t *order, const struct screen_effects *fx)
{
	struct keyed *k = xcalloc(fx->nr, sizeof(*k));
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < fx->nr; i++) {
		family_key(&sb, fx->items[i].name);
		k[i].key = xstrdup(sb.buf);
		k[i].index = i;
	}
	qsort(k, fx->nr, sizeof(*k), cmp_keyed);
	for (i = 0; i < fx->nr; i++) {
		order[i] = k[i].index;
		free(k[i].key);
	}
	free(k);
	strbuf_release(&sb);
}

const char *screen_sim_order_name(enum screen_sim_order order)
{
	switch (order) {
	case SCREEN_ORDER_RANDOM:
		return "random";
	case SCREEN_ORDER_GIVEN:
		return "given";
	case SCREEN_ORDER_RELATED:
		return "related";
	}
	return "?";
}

int screen_sim_order_parse(const char *name, enum screen_sim_order *out)
{
	static const enum screen_sim_order all[] = {
		SCREEN_ORDER_RANDOM, SCREEN_ORDER_GIVEN, SCREEN_ORDER_RELATED,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(all); i++)
		if (!strcmp(name, screen_sim_order_name(all[i]))) {
			*out = all[i];
			return 0;
		}
	return -1;
}

int screen_simulate(struct screen **out, const struct screen_effects *fx,
		    const struct screen_sim_options *opts)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	const char **names = xcalloc(fx->nr ? fx->nr : 1, sizeof(*names));
	size_t *order = xmalloc((fx->nr ? fx->nr : 1) * sizeof(*order));
	double *factor = xmalloc((fx->nr ? fx->nr : 1) * sizeof(*factor));
	double sigma = opts->sd / 100;
	struct screen_options so;
	struct screen *s;
	size_t i;
	int ret = -1;

	if (!rng)
		die("out of memory");
	gsl_rng_set(rng, opts->seed);
	for (i = 0; i < fx->nr; i++) {
		names[i] = fx->items[i].name;
		order[i] = i;
		factor[i] = 1 + screen_sim_cost(fx, i, opts->zero_below) / 100;
	}
	if (opts->order == SCREEN_ORDER_RANDOM)
		gsl_ran_shuffle(rng, order, fx->nr, sizeof(*order));
	else if (opts->order == SCREEN_ORDER_RELATED)
		related_order(order, fx);

	so = opts->screen;
	so.attribute = opts->functions != NULL;
	s = screen_new(names, fx->nr, &so);
	if (screen_prefer_order(s, order) || screen_start(s))
		goto out;
	for (;;) {
		struct screen_step step;

		if (screen_next(s, &step))
			goto out;
		if (step.done)
			break;
		for (i = 0; i < step.nr_evidence; i++)
			if (sim_evidence(s, step.evidence[i], fx, opts))
				goto out;
		for (i = 0; i < step.nr; i++) {
			const struct screen_want *w = &step.wants[i];
			const struct screen_variant *v = screen_variant(s, w->variant);
			double mean = fx->baseline;
			size_t k, have = v->nr_values;

			for (k = 0; k < v->nr_options; k++)
				mean *= factor[v->options[k]];
			for (k = have; k < w->runs; k++) {
				double x = mean * exp(gsl_ran_gaussian_ziggurat(rng, sigma));

				if (screen_add_run(s, w->variant, x))
					goto out;
			}
		}
	}
	*out = s;
	s = NULL;
	ret = 0;
out:
	screen_free(s);
	gsl_rng_free(rng);
	free(names);
	free(order);
	free(factor);
	return ret;
}

int screen_sim_many(struct screen_sim_summary *out, const struct screen_effects *fx,
		    const struct screen_sim_options *opts, size_t seeds, double detect)
{
	struct screen_sim_options o = *opts;
	double builds = 0, runs = 0, false_sum = 0;
	size_t i, k;

	memset(out, 0, sizeof(*out));
	out->seeds = seeds;
	out->detect = detect;
	out->nr_options = fx->nr;
	out->found = xcalloc(fx->nr ? fx->nr : 1, sizeof(*out->found));
	for (k = 0; k < seeds; k++) {
		struct screen *s;
		size_t b, r;

		o.seed = opts->seed + k;
		if (screen_simulate(&s, fx, &o))
			return -1;
		b = screen_builds(s);
		r = screen_runs(s);
		builds += b;
		runs += r;
		if (!k || b < out->builds_min)
			out->builds_min = b;
		if (!k || r < out->runs_min)
			out->runs_min = r;
		if (b > out->builds_max)
			out->builds_max = b;
		if (r > out->runs_max)
			out->runs_max = r;
		for (i = 0; i < screen_nr_found(s); i++)
			out->found[screen_found(s, i)]++;
		screen_free(s);
	}
	out->builds_mean = seeds ? builds / seeds : NAN;
	out->runs_mean = seeds ? runs / seeds : NAN;
	out->detect_min_rate = NAN;
	out->false_max_rate = 0;
	for (i = 0; i < fx->nr; i++) {
		double cost = screen_sim_cost(fx, i, opts->zero_below);
		double rate = seeds ? (double)out->found[i] / seeds : NAN;

		if (cost >= detect) {
			if (!out->nr_detect++ || rate < out->detect_min_rate)
				out->detect_min_rate = rate;
		} else if (cost == 0) {
			out->nr_zero++;
			false_sum += rate;
			if (rate > out->false_max_rate)
				out->false_max_rate = rate;
		}
	}
	out->false_mean_rate = out->nr_zero ? false_sum / out->nr_zero : NAN;
	return 0;
}

void screen_sim_summary_release(struct screen_sim_summary *sum)
{
	free(sum->found);
	sum->found = NULL;
}
