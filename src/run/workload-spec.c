/* workload-spec.c: check a --workload NAME[:k=v,...] and render it as kcp.* kernel parameters. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/levenshtein.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "run/workload-spec.h"
#include "util/wrapper.h"

/* A --workload is short; anything longer is a mistake, not a spec. */
#define SPEC_MAX (WORKLOAD_TEXT_MAX + 16)
/*
 * What a cmd workload's TEXT parameters may take of the kernel command
 * line (COMMAND_LINE_SIZE is 2048 on x86; the rest is the harness's).
 */
#define CMDLINE_TEXT_BUDGET 1536
/* Where the guest looks for a program (guest/cmd.c's PATH). */
#define GUEST_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

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

static size_t encoded_length(const char *text)
{
	return workload_text_encode(NULL, 0, text);
}

/* The TEXT parameters of a cmd workload must fit the kernel command line. */
static int check_cmdline_budget(const struct workload_spec *spec, const char *whole)
{
	size_t i, n = 0;

	for (i = 0; i < spec->nr; i++)
		if (spec->values[i].param->type == WP_TEXT)
			n += encoded_length(spec->values[i].value);
	if (n > CMDLINE_TEXT_BUDGET)
		return error("workload '%s' takes %zu bytes of the kernel command line "
			     "(percent-encoded), more than %d: put the command in a script "
			     "and run that", whole, n, CMDLINE_TEXT_BUDGET);
	return 0;
}

/* A program named without a '/' is looked up as the guest will: in GUEST_PATH. */
static int find_program(const char *name)
{
	struct strvec dirs = STRVEC_INIT;
	size_t i;
	int found = 0;

	if (strchr(name, '/'))
		return !access(name, X_OK);
	strvec_split(&dirs, GUEST_PATH, ":");
	for (i = 0; i < dirs.nr && !found; i++) {
		char *path = xstrfmt("%s/%s", dirs.v[i], name);

		found = !access(path, X_OK);
		free(path);
	}
	strvec_clear(&dirs);
	return found;
}

static int set_command(struct workload_spec *out, const char *whole, const char *command)
{
	struct workload_spec_value *v = find_value(out, "run");
	const char *s = command;
	char why[256];

	if (!v)
		BUG("workload '%s' has no parameter 'run'", workload_table[out->id].name);
	while (s && (*s == ' ' || *s == '\t'))
		s++;
	if (!s || !*s)
		return error("workload '%s' needs a command: --workload '%s:PROGRAM ARGS...'",
			     whole, workload_table[out->id].name);
	if (workload_param_check(v->param, command, NULL, why, sizeof(why)))
		return error("workload '%s': the command: %s", whole, why);
	if (!workload_command_needs_shell(command)) {
		size_t n = strcspn(s, " \t");
		char *prog = xstrndup(s, n);
		int found = find_program(prog);

		if (!found)
			error("workload '%s': no program '%s' on this host (the guest runs the "
			      "host's programs, from %s)", whole, prog,
			      strchr(prog, '/') ? "that path" : GUEST_PATH);
		free(prog);
		if (!found)
			return -1;
	}
	free(v->value);
	v->value = xstrdup(command);
	v->given = 1;
	return check_cmdline_budget(out, whole);
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

	if (workload_table[id].flags & WL_COMMAND) {
		ret = set_command(out, spec, colon ? colon + 1 : NULL);
		goto out;
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

/*
 * The RAM disks' brd parameters: as many as there are, each as large as
 * the largest (brd has one size for all; it allocates a page when it is
 * first written, so a larger one costs nothing unread).
 */
static void add_ram_disks(const struct workload_spec *spec, struct strbuf *out)
{
	unsigned long long kib = 0;
	size_t i, n = 0;

	for (i = 0; i < spec->nr_scratch; i++) {
		if (!workload_scratch_in_ram(&spec->scratch[i]))
			continue;
		n++;
		if (spec->scratch[i].bytes / 1024 > kib)
			kib = spec->scratch[i].bytes / 1024;
	}
	if (n)
		strbuf_addf(out, " brd.rd_nr=%zu brd.rd_size=%llu", n, kib);
}

void workload_spec_cmdline(const struct workload_spec *spec, struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, "kcp.workload=%s", workload_table[spec->id].name);
	for (i = 0; i < spec->nr; i++) {
		const struct workload_spec_value *v = &spec->values[i];

		strbuf_addf(out, " kcp.%s=", v->param->name);
		if (v->param->type == WP_TEXT) {
			size_t n = encoded_length(v->value);

			strbuf_grow(out, n + 1);
			out->buf[out->len] = '\0';
			workload_text_encode(out->buf + out->len, n + 1, v->value);
			strbuf_setlen(out, out->len + n);
		} else {
			strbuf_addstr(out, v->value);
		}
	}
	add_ram_disks(spec, out);
}

void workload_spec_format(const struct workload_spec *spec, struct strbuf *out)
{
	size_t i;
	int n = 0;

	strbuf_addstr(out, workload_table[spec->id].name);
	if (workload_table[spec->id].flags & WL_COMMAND)
		strbuf_addf(out, ":%s", workload_spec_get(spec, "run"));
	else
		for (i = 0; i < spec->nr; i++) {
			const struct workload_spec_value *v = &spec->values[i];

			if (!v->given || !strcmp(v->value, v->param->def))
				continue;
			strbuf_addf(out, "%c%s=%s", n++ ? ',' : ':', v->param->name, v->value);
		}
	for (i = 0; i < spec->nr_scratch; i++)
		strbuf_addf(out, " --scratch %s", spec->scratch[i].spec);
	for (i = 0; i < spec->nr_extracts; i++)
		strbuf_addf(out, " --extract %s", spec->extracts[i].spec);
}

void workload_spec_format_series(const struct workload_spec *first, const char *param,
				 const struct strvec *values, struct strbuf *out)
{
	size_t i, k;
	int n = 0;

	strbuf_addstr(out, workload_table[first->id].name);
	for (i = 0; i < first->nr; i++) {
		const struct workload_spec_value *v = &first->values[i];

		if (!strcmp(v->param->name, param)) {
			strbuf_addf(out, "%c%s=", n++ ? ',' : ':', param);
			for (k = 0; k < values->nr; k++)
				strbuf_addf(out, "%s%s", k ? "," : "", values->v[k]);
			continue;
		}
		if (!v->given || !strcmp(v->value, v->param->def))
			continue;
		strbuf_addf(out, "%c%s=%s", n++ ? ',' : ':', v->param->name, v->value);
	}
	for (i = 0; i < first->nr_scratch; i++)
		strbuf_addf(out, " --scratch %s", first->scratch[i].spec);
}

int workload_spec_expand(struct strvec *out, char **param, const char *spec)
{
	struct strvec kvs = STRVEC_INIT, keys = STRVEC_INIT, vals = STRVEC_INIT;
	const char *colon = strchr(spec, ':');
	char *name = NULL;
	long series = -1;
	size_t i, k;
	int id, ret = -1;

	*param = NULL;
	name = colon ? xstrndup(spec, (size_t)(colon - spec)) : xstrdup(spec);
	id = workload_find(name);
	if (id < 0 || !colon || !colon[1] || (workload_table[id].flags & WL_COMMAND) ||
	    strchr(colon + 1, ' ') || strchr(colon + 1, '\t') || strstr(colon + 1, ",,") ||
	    colon[1] == ',' || spec[strlen(spec) - 1] == ',') {
		/* one spec; workload_spec_parse() says what is wrong with it, if anything */
		strvec_push(out, spec);
		ret = 0;
		goto out;
	}
	strvec_split(&kvs, colon + 1, ",");
	for (i = 0; i < kvs.nr; i++) {
		const char *eq = strchr(kvs.v[i], '=');

		if (eq) {
			char *key = xstrndup(kvs.v[i], (size_t)(eq - kvs.v[i]));

			strvec_push(&keys, key);
			strvec_push(&vals, eq + 1);
			free(key);
			continue;
		}
		if (!keys.nr) {
			error("workload '%s': '%s' is not key=value", spec, kvs.v[i]);
			goto out;
		}
		/* one more value of the key before it: a series */
		if (series >= 0 && strcmp(keys.v[series], keys.v[keys.nr - 1])) {
			error("workload '%s': only one parameter can take a list of values "
			      "(%s and %s do)", spec, keys.v[series], keys.v[keys.nr - 1]);
			goto out;
		}
		if (series < 0)
			series = (long)keys.nr - 1;
		strvec_push(&vals, kvs.v[i]);
		/* keep keys and vals in step: the extra value gets its key's name */
		strvec_push(&keys, keys.v[series]);
	}
	if (series < 0) {
		strvec_push(out, spec);
		ret = 0;
		goto out;
	}
	*param = xstrdup(keys.v[series]);
	for (k = 0; k < keys.nr; k++) {
		struct strbuf sb = STRBUF_INIT;
		int n = 0;

		if (strcmp(keys.v[k], *param))
			continue;
		strbuf_addf(&sb, "%s:", name);
		for (i = 0; i < keys.nr; i++) {
			if (!strcmp(keys.v[i], *param) && i != k)
				continue;
			strbuf_addf(&sb, "%s%s=%s", n++ ? "," : "", keys.v[i], vals.v[i]);
		}
		strvec_push(out, sb.buf);
		strbuf_release(&sb);
	}
	ret = 0;
out:
	free(name);
	strvec_clear(&kvs);
	strvec_clear(&keys);
	strvec_clear(&vals);
	return ret;
}

int workload_spec_parse_arg(struct workload_spec **specs, size_t *nr, struct strbuf *series_label,
			    const char *text, const struct strvec *scratch,
			    const struct strvec *extracts)
{
	struct strvec members = STRVEC_INIT, values = STRVEC_INIT;
	const struct workload_spec blank = WORKLOAD_SPEC_INIT;
	size_t first = *nr, i, k;
	char *param = NULL;
	int ret = -1;

	if (workload_spec_expand(&members, &param, text))
		goto out;
	for (k = 0; k < members.nr; k++) {
		struct workload_spec *spec;

		*specs = xrealloc(*specs, (*nr + 1) * sizeof(**specs));
		spec = &(*specs)[*nr];
		*spec = blank;
		if (workload_spec_parse(spec, members.v[k]))
			goto out;
		(*nr)++;
		for (i = 0; i < scratch->nr; i++)
			if (workload_spec_add_scratch(spec, scratch->v[i]))
				goto out;
		for (i = 0; i < extracts->nr; i++)
			if (workload_spec_add_extract(spec, extracts->v[i]))
				goto out;
	}
	if (param) {
		for (k = first; k < *nr; k++)
			strvec_push(&values, workload_spec_get(&(*specs)[k], param));
		workload_spec_format_series(&(*specs)[first], param, &values, series_label);
	}
	ret = 0;
out:
	free(param);
	strvec_clear(&members);
	strvec_clear(&values);
	return ret;
}

static int valid_layers(const char *layers, const char *arg)
{
	struct strvec l = STRVEC_INIT;
	size_t i, j;
	int ret = 0;

	strvec_split(&l, layers, ",");
	if (!l.nr || strstr(layers, ",,") || layers[0] == ',' || layers[strlen(layers) - 1] == ',')
		ret = error("--scratch '%s': layers are ram, lvm, crypt and ext4, separated by "
			    "single commas", arg);
	for (i = 0; i < l.nr && !ret; i++) {
		if (strcmp(l.v[i], "ram") && strcmp(l.v[i], "lvm") && strcmp(l.v[i], "crypt") &&
		    strcmp(l.v[i], "ext4"))
			ret = error("--scratch '%s': '%s' is not a layer (ram, lvm, crypt or ext4)",
				    arg, l.v[i]);
		for (j = 0; j < i && !ret; j++)
			if (!strcmp(l.v[i], l.v[j]))
				ret = error("--scratch '%s': %s twice", arg, l.v[i]);
		if (!ret && !strcmp(l.v[i], "ram") && i)
			ret = error("--scratch '%s': ram is where the disk is (the guest's memory): "
				    "it comes first", arg);
		if (!ret && !strcmp(l.v[i], "ext4") && i + 1 < l.nr)
			ret = error("--scratch '%s': ext4 is a file system: it comes last", arg);
	}
	strvec_clear(&l);
	return ret;
}

/* The guest's scratch parameter: every disk's spec, separated by spaces. */
static void update_scratch_param(struct workload_spec *spec)
{
	struct workload_spec_value *v = find_value(spec, "scratch");
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!v)
		return;
	for (i = 0; i < spec->nr_scratch; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", spec->scratch[i].spec);
	free(v->value);
	v->value = strbuf_detach(&sb, NULL);
	v->given = spec->nr_scratch > 0;
}

int workload_scratch_in_ram(const struct workload_scratch *d)
{
	return !strncmp(d->layers, "ram", 3) && (!d->layers[3] || d->layers[3] == ',');
}

int workload_spec_add_scratch(struct workload_spec *spec, const char *arg)
{
	static const struct workload_param size_param = {
		.name = "scratch", .type = WP_SIZE,
		.min = WORKLOAD_SCRATCH_MIN_BYTES, .max = WORKLOAD_SCRATCH_MAX_BYTES,
	};
	const char *colon = strchr(arg, ':');
	char *size = colon ? xstrndup(arg, (size_t)(colon - arg)) : xstrdup(arg);
	const char *layers = colon ? colon + 1 : "";
	int command = (workload_table[spec->id].flags & WL_COMMAND) != 0;
	struct workload_scratch *d;
	unsigned long long bytes;
	char why[256];
	int ret = -1;

	if (spec->nr_scratch >= WORKLOAD_SCRATCH_MAX) {
		error("--scratch '%s': a run has at most %d scratch disks", arg, WORKLOAD_SCRATCH_MAX);
		goto out;
	}
	if (workload_param_check(&size_param, size, &bytes, why, sizeof(why))) {
		error("--scratch '%s': the size: %s (1M to 1024G)", arg, why);
		goto out;
	}
	if (colon && valid_layers(layers, arg))
		goto out;
	if (*layers && !command) {
		error("--scratch '%s': the guest prepares disks with the host's tools, for a "
		      "cmd: workload only; '%s' gets a raw disk (--scratch %s)", arg,
		      workload_table[spec->id].name, size);
		goto out;
	}
	spec->scratch = xrealloc(spec->scratch, (spec->nr_scratch + 1) * sizeof(*spec->scratch));
	d = &spec->scratch[spec->nr_scratch++];
	d->spec = xstrdup(arg);
	d->bytes = bytes;
	d->layers = xstrdup(layers);
	update_scratch_param(spec);
	ret = command ? check_cmdline_budget(spec, arg) : 0;
out:
	free(size);
	return ret;
}

int workload_spec_add_extract(struct workload_spec *spec, const char *arg)
{
	struct extract x = EXTRACT_INIT;
	size_t i;

	if (!(workload_table[spec->id].flags & WL_COMMAND))
		return error("--extract '%s': only a cmd: workload has output to take numbers "
			     "from; '%s' reports its own", arg, workload_table[spec->id].name);
	if (extract_parse(&x, arg))
		return -1;
	for (i = 0; i < spec->nr_extracts; i++)
		if (!strcmp(spec->extracts[i].metric, x.metric)) {
			error("--extract '%s': the metric '%s' is extracted twice", arg, x.metric);
			extract_release(&x);
			return -1;
		}
	spec->extracts = xrealloc(spec->extracts,
				  (spec->nr_extracts + 1) * sizeof(*spec->extracts));
	spec->extracts[spec->nr_extracts++] = x;
	return 0;
}

void workload_spec_profiles(const struct workload_spec *spec, struct strvec *out)
{
	size_t i;

	if (workload_table[spec->id].profile)
		strvec_push_unique(out, workload_table[spec->id].profile);
	for (i = 0; i < spec->nr_scratch; i++) {
		const char *l = spec->scratch[i].layers;

		if (workload_scratch_in_ram(&spec->scratch[i]))
			strvec_push_unique(out, "ramdisk");
		if (strstr(l, "ext4"))
			strvec_push_unique(out, "disk");
		if (strstr(l, "lvm") || strstr(l, "crypt"))
			strvec_push_unique(out, "crypt");
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
	for (i = 0; i < spec->nr_scratch; i++) {
		free(spec->scratch[i].spec);
		free(spec->scratch[i].layers);
	}
	free(spec->scratch);
	for (i = 0; i < spec->nr_extracts; i++)
		extract_release(&spec->extracts[i]);
	free(spec->extracts);
	*spec = blank;
}
