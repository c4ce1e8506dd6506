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
		else if (m->conditions.kernel_version)
			strbuf_addstr(&sb, m->conditions.kernel_version);
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
		if (!analyze_config_value(&sb, config, "CC_VERSION_TEXT") && m->conditions.compiler)
			strbuf_addstr(&sb, m->conditions.compiler);
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

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void analyze_env_build(struct analyze_model *m)
{
	const struct conditions *c = &m->conditions;
	struct strbuf sb = STRBUF_INIT;
	const char *accel = analyze_accel(m);

	add_per_variant(m, "kernel", VF_KERNEL);
	add(m, "command line", dup_or_null(c->kernel_cmdline));
	add_per_variant(m, "preempt", VF_PREEMPT);
	add_per_variant(m, "HZ", VF_HZ);
	add_per_variant(m, "clocksource", VF_CLOCKSOURCE);
	if (c->runner)
		add(m, "qemu", xstrfmt("none: runner %s", c->runner));
	else
		add(m, "qemu", dup_or_null(c->qemu_version ? c->qemu_version : c->qemu));
	if (accel) {
		strbuf_addstr(&sb, accel);
		if (c->clock != VM_CLOCK_AUTO) {
			strbuf_addstr(&sb, ", clock ");
			vm_clock_format(&sb, c->clock, c->icount_shift);
		}
		add(m, "accel", strbuf_detach(&sb, NULL));
	}
	strbuf_reset(&sb);
	strbuf_addstr(&sb, c->arch ? c->arch : "x86_64");
	if (c->machine)
		strbuf_addf(&sb, ", machine %s", c->machine);
	if (c->cpu)
		strbuf_addf(&sb, ", cpu %s", c->cpu);
	if (c->smp >= 0)
		strbuf_addf(&sb, ", %d CPU%s", c->smp, c->smp != 1 ? "s" : "");
	if (c->mem_mb >= 0)
		strbuf_addf(&sb, ", %d MB", c->mem_mb);
	if (c->smp >= 0 || c->machine)
		add(m, "machine", strbuf_detach(&sb, NULL));
	strbuf_reset(&sb);
	add(m, "firmware", dup_or_null(c->firmware));
	add(m, "boot", dup_or_null(c->boot));
	add_per_variant(m, "compiler", VF_COMPILER);
	if (c->kconfperf && strcmp(c->kconfperf, KCONFPERF_VERSION))
		add(m, "kconfperf", xstrfmt("%s (this report: %s)", c->kconfperf, KCONFPERF_VERSION));
	else if (c->kconfperf)
		add(m, "kconfperf", xstrdup(c->kconfperf));
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
