/* analyze-env.c: the conditions every variant was measured under, and where they differ. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/analyze-env.h"
#include "stats/analyze.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/wrapper.h"

#define NONE SIZE_MAX

int analyze_config_value(struct strbuf *out, const char *config, const char *sym)
{
	size_t n = strlen(sym);
	const char *p = config;

	while (p && *p) {
		const char *nl = strchr(p, '\n');

		if (!strncmp(p, "CONFIG_", 7) && !strncmp(p + 7, sym, n) && p[7 + n] == '=') {
			const char *v = p + 8 + n, *end = nl ? nl : v + strlen(v);

			if (*v == '"' && end > v + 1 && end[-1] == '"') {
				for (v++, end--; v < end; v++) {
					if (*v == '\\' && v + 1 < end)
						v++;
					strbuf_addch(out, *v);
				}
			} else {
				strbuf_add(out, v, (size_t)(end - v));
			}
			return 1;
		}
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

static int is_set(const char *config, const char *sym)
{
	struct strbuf sb = STRBUF_INIT;
	int set = analyze_config_value(&sb, config, sym) && !strcmp(sb.buf, "y");

	strbuf_release(&sb);
	return set;
}

enum variant_fact {
	VF_KERNEL, VF_PREEMPT, VF_HZ, VF_CLOCKSOURCE, VF_COMPILER,
};

/* A variant's value of a per-variant fact, malloc'd, or NULL when not known. */
static char *variant_fact(const struct analyze_model *m, size_t i, enum variant_fact f)
{
	const struct analyze_variant *av = &m->variants[i];
	const char *config = av->v.config;
	struct strbuf sb = STRBUF_INIT;
	size_t r;

	if (f != VF_CLOCKSOURCE && (!config || !*config))
		return NULL;
	switch (f) {
	case VF_KERNEL:
		if (m->nr_sources > 1)	/* "6.1+fix (6.1.192 with fix.patch)" */
			analyze_describe_source(&sb, &m->sources[av->source]);
		else if (m->nr_sources && m->sources[av->source].version &&
			 *m->sources[av->source].version)
			strbuf_addstr(&sb, m->sources[av->source].version);
		else if (analyze_fact(m, "kernel_version"))
			strbuf_addstr(&sb, analyze_fact(m, "kernel_version"));
		analyze_config_value(&sb, config, "LOCALVERSION");
		break;
	case VF_PREEMPT:
		strbuf_addstr(&sb, is_set(config, "PREEMPT_RT") ? "rt" :
			      is_set(config, "PREEMPT") ? "full" :
			      is_set(config, "PREEMPT_VOLUNTARY") ? "voluntary" : "none");
		if (is_set(config, "PREEMPT_DYNAMIC"))
			strbuf_addstr(&sb, " (dynamic)");
		break;
	case VF_HZ:
		if (!analyze_config_value(&sb, config, "HZ"))
			break;
		strbuf_addstr(&sb, is_set(config, "NO_HZ_FULL") ? ", tickless (full)" :
			      is_set(config, "NO_HZ_IDLE") ? ", tickless idle" : ", periodic tick");
		break;
	case VF_CLOCKSOURCE:
		for (r = 0; r < m->nr_runs; r++) {
			const char *cs = m->runs[r].clocksource;
			int64_t vid = m->runs[r].variant_id;
			size_t t = av->state == ANALYZE_SAME_AS ? av->twin : i;

			if (!cs || !*cs || t == NONE || vid != m->variants[t].v.id)
				continue;
			if (!strstr(sb.buf, cs))	/* a short list of distinct names */
				strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", cs);
		}
		break;
	case VF_COMPILER:
		if (!analyze_config_value(&sb, config, "CC_VERSION_TEXT") && analyze_fact(m, "compiler"))
			strbuf_addstr(&sb, analyze_fact(m, "compiler"));
		break;
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

static struct analyze_env_fact *add(struct analyze_model *m, const char *name, char *value)
{
	struct analyze_env_fact *f;

	if (!value)
		return NULL;
	m->env = xrealloc(m->env, (m->nr_env + 1) * sizeof(*m->env));
	f = &m->env[m->nr_env++];
	memset(f, 0, sizeof(*f));
	f->name = name;
	f->value = value;
	return f;
}

static int measured(const struct analyze_variant *av)
{
	return av->state == ANALYZE_OK || av->state == ANALYZE_SAME_AS;
}

static void add_per_variant(struct analyze_model *m, const char *name, enum variant_fact vf)
{
	char **values = xcalloc(m->nr_variants ? m->nr_variants : 1, sizeof(*values));
	size_t i, first = NONE;
	const char *ref = NULL;
	int differs = 0;

	for (i = 0; i < m->nr_variants; i++)
		if (measured(&m->variants[i]))
			values[i] = variant_fact(m, i, vf);
	if (m->baseline != NONE && values[m->baseline])
		first = m->baseline;
	for (i = 0; first == NONE && i < m->nr_variants; i++)
		if (values[i])
			first = i;
	if (first != NONE)
		ref = values[first];
	for (i = 0; ref && i < m->nr_variants; i++)
		if (values[i] && strcmp(values[i], ref))
			differs = 1;
	if (!ref) {
		free(values);
		return;
	}
	add(m, name, xstrdup(ref));
	m->env[m->nr_env - 1].differs = differs;
	if (differs) {
		m->env[m->nr_env - 1].values = values;
		return;
	}
	for (i = 0; i < m->nr_variants; i++)
		free(values[i]);
	free(values);
}

static char *fact_dup(const struct analyze_model *m, const char *key)
{
	const char *v = analyze_fact(m, key);

	return v ? xstrdup(v) : NULL;
}

void analyze_env_build(struct analyze_model *m)
{
	struct strbuf sb = STRBUF_INIT;
	const char *v;

	add_per_variant(m, "kernel", VF_KERNEL);
	add(m, "command line", fact_dup(m, "kernel_cmdline"));
	add_per_variant(m, "preempt", VF_PREEMPT);
	add_per_variant(m, "HZ", VF_HZ);
	add_per_variant(m, "clocksource", VF_CLOCKSOURCE);
	if (analyze_fact(m, "runner"))
		add(m, "qemu", xstrfmt("none: runner %s", analyze_fact(m, "runner")));
	else
		add(m, "qemu", fact_dup(m, analyze_fact(m, "qemu_version") ? "qemu_version" : "qemu"));
	v = analyze_fact(m, "accel");
	if (v) {
		strbuf_addstr(&sb, v);
		if (analyze_fact(m, "clock"))
			strbuf_addf(&sb, ", clock %s", analyze_fact(m, "clock"));
		add(m, "accel", strbuf_detach(&sb, NULL));
	}
	strbuf_reset(&sb);
	strbuf_addstr(&sb, analyze_fact(m, "arch") ? analyze_fact(m, "arch") : "x86_64");
	if (analyze_fact(m, "machine"))
		strbuf_addf(&sb, ", machine %s", analyze_fact(m, "machine"));
	if (analyze_fact(m, "cpu"))
		strbuf_addf(&sb, ", cpu %s", analyze_fact(m, "cpu"));
	if (analyze_fact(m, "smp"))
		strbuf_addf(&sb, ", %s CPU%s", analyze_fact(m, "smp"),
			    strcmp(analyze_fact(m, "smp"), "1") ? "s" : "");
	if (analyze_fact(m, "mem_mb"))
		strbuf_addf(&sb, ", %s MB", analyze_fact(m, "mem_mb"));
	if (analyze_fact(m, "smp") || analyze_fact(m, "machine"))
		add(m, "machine", strbuf_detach(&sb, NULL));
	strbuf_reset(&sb);
	add(m, "firmware", fact_dup(m, "firmware"));
	add(m, "boot", fact_dup(m, "boot"));
	add_per_variant(m, "compiler", VF_COMPILER);
	v = analyze_fact(m, "kconfperf");
	if (v && strcmp(v, KCONFPERF_VERSION))
		add(m, "kconfperf", xstrfmt("%s (this report: %s)", v, KCONFPERF_VERSION));
	else if (v)
		add(m, "kconfperf", xstrdup(v));
	strbuf_release(&sb);
}

void analyze_env_release(struct analyze_model *m)
{
	size_t i, k;

	for (i = 0; i < m->nr_env; i++) {
		free(m->env[i].value);
		for (k = 0; m->env[i].values && k < m->nr_variants; k++)
			free(m->env[i].values[k]);
		free(m->env[i].values);
	}
	free(m->env);
	m->env = NULL;
	m->nr_env = 0;
}

void analyze_env_describe_differs(struct strbuf *sb, const struct analyze_model *m,
				  const struct analyze_env_fact *f)
{
	size_t i;
	int n = 0;

	for (i = 0; f->values && i < m->nr_variants; i++) {
		if (!f->values[i] || !strcmp(f->values[i], f->value))
			continue;
		strbuf_addf(sb, "%s%s: %s", n++ ? "; " : "", m->variants[i].v.name, f->values[i]);
	}
}
