/* source-set.c: the kernel sources of one experiment: every --source and --patch, labelled. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plan/source-set.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define LABEL_MAX 64

int source_label_valid(const char *label)
{
	size_t i;

	if (!label || !*label || strlen(label) > LABEL_MAX)
		return 0;
	for (i = 0; label[i]; i++) {
		char c = label[i];
		int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

		if (!alnum && (!i || !strchr("._+-", c)))
			return 0;
	}
	return 1;
}

void source_arg_split(const char *arg, char **label, const char **path)
{
	const char *eq = strchr(arg, '=');
	struct stat st;

	*label = NULL;
	*path = arg;
	if (!eq || !stat(arg, &st))
		return;
	*label = xstrndup(arg, (size_t)(eq - arg));
	if (!source_label_valid(*label)) {
		free(*label);
		*label = NULL;
		return;
	}
	*path = eq + 1;
}

void source_set_release(struct source_set *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		kernel_source_release(&s->v[i].ks);
		free(s->v[i].label);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

const struct experiment_source *source_set_find(const struct source_set *s, const char *label)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i].label, label))
			return &s->v[i];
	return NULL;
}

char *source_variant_name(const char *label, const char *name)
{
	return label && *label ? xstrfmt("%s:%s", label, name) : xstrdup(name);
}

static struct experiment_source *add(struct source_set *s)
{
	struct experiment_source *es;

	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	es = &s->v[s->nr++];
	memset(es, 0, sizeof(*es));
	strvec_init(&es->ks.patched);
	es->base = -1;
	return es;
}

/* "6.1" of "6.1.192-rc1": the version up to its second dot. */
static char *short_version(const char *version)
{
	const char *dot = strchr(version, '.');

	if (dot)
		dot = strchr(dot + 1, '.');
	return xstrndup(version, dot ? (size_t)(dot - version) : strlen(version));
}

static size_t count_version(const struct source_set *s, size_t upto, const char *v, int shortened)
{
	size_t i, n = 0;

	for (i = 0; i < upto; i++) {
		char *sv;

		if (s->v[i].base >= 0)
			continue;
		sv = shortened ? short_version(s->v[i].ks.version) : xstrdup(s->v[i].ks.version);
		n += !strcmp(sv, v);
		free(sv);
	}
	return n;
}

/* A label for the plain source i from its version, unique among the plain ones. */
static int version_label(struct source_set *s, size_t i, size_t nr_plain)
{
	char *sv = short_version(s->v[i].ks.version);
	int ret = 0;

	if (count_version(s, nr_plain, sv, 1) == 1)
		s->v[i].label = sv;
	else if (count_version(s, nr_plain, s->v[i].ks.version, 0) == 1)
		s->v[i].label = xstrdup(s->v[i].ks.version);
	else
		ret = error("two sources are both kernel %s: name them, --source NAME=%s",
			    s->v[i].ks.version, s->v[i].ks.origin);
	if (s->v[i].label != sv)
		free(sv);
	if (!ret && !source_label_valid(s->v[i].label))
		ret = error("'%s' (the version of '%s') cannot label a source: name it, "
			    "--source NAME=%s", s->v[i].label, s->v[i].ks.origin, s->v[i].ks.origin);
	return ret;
}

/* "lockdep-kasan" of "patches/lockdep-kasan.patch". */
static char *patch_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (ends_with(base, ".patch"))
		len -= 6;
	else if (ends_with(base, ".diff"))
		len -= 5;
	return xstrndup(base, len);
}

static int check_unique(const struct source_set *s)
{
	size_t i, j;

	for (i = 0; i < s->nr; i++) {
		for (j = 0; j < i; j++) {
			if (!strcmp(s->v[i].label, s->v[j].label))
				return error("two sources are labelled '%s' ('%s' and '%s'): name "
					     "them apart", s->v[i].label,
					     s->v[j].ks.patch ? s->v[j].ks.patch : s->v[j].ks.origin,
					     s->v[i].ks.patch ? s->v[i].ks.patch : s->v[i].ks.origin);
			if (!strcmp(s->v[i].ks.id, s->v[j].ks.id))
				return error("'%s' and '%s' are the same source (%.20s...)",
					     s->v[j].ks.patch ? s->v[j].ks.patch : s->v[j].ks.origin,
					     s->v[i].ks.patch ? s->v[i].ks.patch : s->v[i].ks.origin,
					     s->v[i].ks.id);
		}
	}
	return 0;
}

int source_set_open(struct source_set *out, const struct strvec *sources,
		    const struct strvec *patches, const char *cache_dir)
{
	size_t i, nr_plain = sources->nr;
	int lone = sources->nr == 1 && !patches->nr;

	memset(out, 0, sizeof(*out));
	if (!sources->nr)
		return error("no --source given");
	for (i = 0; i < sources->nr; i++) {
		struct experiment_source *es = add(out);
		const char *path;

		source_arg_split(sources->v[i], &es->label, &path);
		if (kernel_source_open(&es->ks, path, cache_dir))
			goto fail;
	}
	for (i = 0; i < nr_plain; i++) {
		if (lone && !out->v[i].label)
			out->v[i].label = xstrdup("");
		else if (!out->v[i].label && version_label(out, i, nr_plain))
			goto fail;
	}
	for (i = 0; i < patches->nr; i++) {
		struct experiment_source *es = add(out);
		const char *path;
		char *name, *abs;
		int rc;

		source_arg_split(patches->v[i], &es->label, &path);
		es->base = 0;
		/* Kept with its whole path: build opens it again from wherever it runs. */
		abs = absolute_path(path);
		rc = kernel_source_patch(&es->ks, &out->v[0].ks, abs, cache_dir);
		free(abs);
		if (rc)
			goto fail;
		if (!es->label) {
			name = patch_name(path);
			es->label = xstrfmt("%s+%s", out->v[0].label, name);
			free(name);
			if (!source_label_valid(es->label)) {
				error("'%s' cannot label the patched source of '%s': name it, "
				      "--patch NAME=%s", es->label, path, path);
				goto fail;
			}
		}
	}
	if (check_unique(out))
		goto fail;
	return 0;
fail:
	source_set_release(out);
	return -1;
}
