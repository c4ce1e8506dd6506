/* workload-spec.c: check a --workload NAME[:k=v,...] and render it as kcp.* kernel parameters. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "util/levenshtein.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "run/workload-spec.h"
#include "util/wrapper.h"

/* A --workload is short; anything longer is a mistake, not a spec. */
#define SPEC_MAX 1024

static void list_workloads(struct strbuf *sb)
{
	int i, n = 0;

	for (i = 0; i < NR_WORKLOADS; i++) {
		if (workload_table[i].flags & WL_TEST)
			continue;
		strbuf_addf(sb, "%s%s", n++ ? ", " : "", workload_table[i].name);
	}
}

static const char *closest_workload(const char *name)
{
	const char *best = NULL;
	int i, best_d = 0;

	for (i = 0; i < NR_WORKLOADS; i++) {
		int d = levenshtein(name, workload_table[i].name);

		if (!best || d < best_d) {
			best = workload_table[i].name;
			best_d = d;
		}
	}
	/* a suggestion that shares little with the name only confuses */
	return best_d <= 3 ? best : NULL;
}

static void list_params(int id, struct strbuf *sb)
{
	size_t i;
	int n = 0;

	for (i = 0; i < nr_workload_params; i++)
		if ((int)workload_params[i].workload == id)
			strbuf_addf(sb, "%s%s", n++ ? ", " : "", workload_params[i].name);
	if (!n)
		strbuf_addstr(sb, "none");
}

static int unknown_workload(const char *name)
{
	struct strbuf list = STRBUF_INIT;
	const char *close = closest_workload(name);
	int ret;

	list_workloads(&list);
	if (close)
		ret = error("unknown workload '%s'; did you mean '%s'? (workloads: %s)",
			    name, close, list.buf);
	else
		ret = error("unknown workload '%s' (workloads: %s)", name, list.buf);
	strbuf_release(&list);
	return ret;
}

static struct workload_spec_value *find_value(const struct workload_spec *spec,
					      const char *name)
{
	size_t i;

	for (i = 0; i < spec->nr; i++)
		if (!strcmp(spec->values[i].param->name, name))
			return &spec->values[i];
	return NULL;
}

/* Applies one "key=value" of the spec. */
static int set_param(struct workload_spec *spec, const char *whole, const char *kv)
{
	const char *name = workload_table[spec->id].name;
	struct workload_spec_value *v;
	const char *eq = strchr(kv, '=');
	char *key;
	char why[256];
	int ret = 0;

	if (!eq || eq == kv)
		return error("workload '%s': '%s' is not key=value", whole, kv);
	key = xstrndup(kv, eq - kv);
	v = find_value(spec, key);
	if (!v) {
		struct strbuf list = STRBUF_INIT;

		list_params(spec->id, &list);
		ret = error("workload '%s' has no parameter '%s' (parameters: %s)",
			    name, key, list.buf);
		strbuf_release(&list);
	} else if (v->given) {
		ret = error("workload '%s': parameter '%s' given twice", whole, key);
	} else if (workload_param_check(v->param, eq + 1, NULL, why, sizeof(why))) {
		ret = error("workload '%s': %s: %s", whole, key, why);
	} else {
		free(v->value);
		v->value = xstrdup(eq + 1);
		v->given = 1;
	}
	free(key);
	return ret;
}

int workload_spec_parse(struct workload_spec *out, const char *spec)
{
	struct strvec kvs = STRVEC_INIT;
	const char *colon;
	char *name;
	size_t i;
	int id, ret = 0;

	if (strlen(spec) > SPEC_MAX)
		return error("workload spec longer than %d bytes", SPEC_MAX);
	colon = strchr(spec, ':');
	name = colon ? xstrndup(spec, colon - spec) : xstrdup(spec);
	if (!*name) {
		struct strbuf list = STRBUF_INIT;

		list_workloads(&list);
		ret = error("workload '%s' has no name (workloads: %s)", spec, list.buf);
		strbuf_release(&list);
		goto out;
	}
	id = workload_find(name);
	if (id < 0) {
		ret = unknown_workload(name);
		goto out;
	}

	out->id = id;
	out->values = xcalloc(nr_workload_params, sizeof(*out->values));
	for (i = 0; i < nr_workload_params; i++) {
		const struct workload_param *p = &workload_params[i];

		if ((int)p->workload != id)
			continue;
		out->values[out->nr].param = p;
		out->values[out->nr].value = xstrdup(p->def);
		out->values[out->nr].given = 0;
		out->nr++;
	}

	if (colon) {
		if (!colon[1]) {
			ret = error("workload '%s': no parameters after ':'", spec);
			goto out;
		}
		if (strchr(colon + 1, ' ') || strchr(colon + 1, '\t') || strstr(colon + 1, ",,") ||
		    colon[1] == ',' || spec[strlen(spec) - 1] == ',') {
			ret = error("workload '%s': parameters are key=value separated by "
				    "single commas, without spaces", spec);
			goto out;
		}
		strvec_split(&kvs, colon + 1, ",");
		for (i = 0; i < kvs.nr && !ret; i++)
			ret = set_param(out, spec, kvs.v[i]);
	}
out:
	strvec_clear(&kvs);
	free(name);
	if (ret)
		workload_spec_release(out);
	return ret;
}

const char *workload_spec_get(const struct workload_spec *spec, const char *name)
{
	const struct workload_spec_value *v = find_value(spec, name);

	return v ? v->value : NULL;
}

void workload_spec_cmdline(const struct workload_spec *spec, struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, "kcp.workload=%s", workload_table[spec->id].name);
	for (i = 0; i < spec->nr; i++)
		strbuf_addf(out, " kcp.%s=%s", spec->values[i].param->name,
			    spec->values[i].value);
}

void workload_spec_format(const struct workload_spec *spec, struct strbuf *out)
{
	size_t i;
	int n = 0;

	strbuf_addstr(out, workload_table[spec->id].name);
	for (i = 0; i < spec->nr; i++) {
		const struct workload_spec_value *v = &spec->values[i];

		if (!v->given || !strcmp(v->value, v->param->def))
			continue;
		strbuf_addf(out, "%c%s=%s", n++ ? ',' : ':', v->param->name, v->value);
	}
}

void workload_spec_release(struct workload_spec *spec)
{
	struct workload_spec blank = WORKLOAD_SPEC_INIT;
	size_t i;

	if (!spec)
		return;
	for (i = 0; i < spec->nr; i++)
		free(spec->values[i].value);
	free(spec->values);
	*spec = blank;
}
