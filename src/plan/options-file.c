/* options-file.c: the candidate options of a plan: a list, a file with named groups, or a config diff. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kconfig/kconfig.h"
#include "plan/options-file.h"
#include "plan/plan.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

void plan_option_list_free(struct plan_option *opts, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(opts[i].name);
		free(opts[i].value);
		free(opts[i].label);
		kconfig_free(opts[i].settings);
		strvec_clear(&opts[i].deps);
	}
	free(opts);
}

void plan_option_settings_text(struct strbuf *out, const struct plan_option *opt)
{
	size_t iter = 0;
	const char *name, *value;

	while (kconfig_next(opt->settings, &iter, &name, &value))
		strbuf_addf(out, "CONFIG_%s=%s\n", name, value);
}

int plan_option_holds(const struct plan_option *opt, const struct kconfig *kc)
{
	size_t iter = 0;
	const char *name, *want;

	while (kconfig_next(opt->settings, &iter, &name, &want)) {
		const char *have = kconfig_get(kc, name);

		if (!have || !strcmp(have, "n")) {
			if (strcmp(want, "n"))
				return 0;
		} else if (strcmp(have, want)) {
			return 0;
		}
	}
	return 1;
}

/* A candidate of one setting. */
static void add_single(struct plan_option **out, size_t *nr, size_t *alloc,
		       const char *name, const char *value)
{
	struct plan_option *opt;

	ALLOC_GROW(*out, *nr + 1, *alloc);
	opt = &(*out)[(*nr)++];
	memset(opt, 0, sizeof(*opt));
	opt->name = xstrdup(name);
	opt->value = xstrdup(value);
	opt->label = xstrfmt("CONFIG_%s=%s", name, value);
	opt->settings = kconfig_new();
	if (kconfig_set(opt->settings, name, value))
		BUG("cannot set the parsed option CONFIG_%s=%s", name, value);
	strvec_init(&opt->deps);
}

/* Every setting of kc, one candidate each, in file order. */
static void add_all_single(struct plan_option **out, size_t *nr, size_t *alloc,
			   const struct kconfig *kc)
{
	size_t iter = 0;
	const char *name, *value;

	while (kconfig_next(kc, &iter, &name, &value))
		add_single(out, nr, alloc, name, value);
}

/* r->open after a "group" line that was a mistake (said): its endgroup is not another. */
#define BROKEN_GROUP (-2L)

/* One group as the file names it, while the file is read. */
struct group {
	char *name;
	size_t line;			/* of its "group" line */
	struct kconfig *settings;
	int emitted;
};

/* Where a symbol of the file was first given, and in which group (or none). */
struct origin {
	char *symbol;
	size_t line;
	long group;			/* index into groups, -1 outside any */
};

struct reader {
	const char *path;
	struct group *groups;
	size_t nr_groups, alloc_groups;
	struct origin *origins;
	size_t nr_origins, alloc_origins;
	long open;			/* the group being read, -1, or BROKEN_GROUP */
	int errors;
};

static void reader_release(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->nr_groups; i++) {
		free(r->groups[i].name);
		kconfig_free(r->groups[i].settings);
	}
	free(r->groups);
	for (i = 0; i < r->nr_origins; i++)
		free(r->origins[i].symbol);
	free(r->origins);
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static const char *reserved_reason(const char *name)
{
	if (!strcmp(name, "baseline") || !strcmp(name, "baseline-again") || !strcmp(name, "all"))
		return "the name of a variant kconfperf makes";
	if (starts_with(name, "all-"))
		return "how leave-one-out variants are named";
	if (!strncasecmp(name, "CONFIG_", 7))
		return "how options are named";
	return NULL;
}

/* Checks a group name: 0, or -1 with a message at line. */
static int check_group_name(const struct reader *r, size_t line, const char *name, size_t len)
{
	size_t i;
	char *copy;
	const char *why;
	int ret = 0;

	if (!len)
		return error("%s:%zu: 'group' needs a name (group NAME ... endgroup)", r->path, line);
	if (len > PLAN_GROUP_NAME_MAX)
		return error("%s:%zu: group name '%.*s...' is longer than %d characters", r->path,
			     line, 20, name, PLAN_GROUP_NAME_MAX);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (!(isalnum(c) || (i && (c == '_' || c == '.' || c == '-'))))
			return error("%s:%zu: group name '%.*s' may hold letters, digits, '_', '.' "
				     "and '-', starting with a letter or digit", r->path, line,
				     (int)len, name);
	}
	copy = xstrndup(name, len);
	why = reserved_reason(copy);
	if (why) {
		ret = error("%s:%zu: '%s' cannot name a group: it is %s", r->path, line, copy, why);
		goto out;
	}
	for (i = 0; i < r->nr_groups; i++) {
		if (!strcmp(r->groups[i].name, copy)) {
			ret = error("%s:%zu: group '%s' again (the first is at line %zu)", r->path,
				    line, copy, r->groups[i].line);
			goto out;
		}
	}
out:
	free(copy);
	return ret;
}

/*
 * Whether the line (blanks trimmed, a "# comment" after blanks cut) is the
 * keyword kw and what follows it: 1 with *rest and *rest_len set, else 0.
 */
static int keyword(const char *line, size_t len, const char *kw, const char **rest,
		   size_t *rest_len)
{
	size_t n = strlen(kw), i;

	if (len < n || strncmp(line, kw, n) || (len > n && !is_blank(line[n]) && line[n] != '#'))
		return 0;
	i = n;
	while (i < len && is_blank(line[i]))
		i++;
	*rest = line + i;
	*rest_len = 0;
	while (i + *rest_len < len && !is_blank(line[i + *rest_len]) && line[i + *rest_len] != '#')
		(*rest_len)++;
	/* anything after the name but blanks and a comment is a mistake */
	for (i += *rest_len; i < len && is_blank(line[i]); i++)
		;
	if (i < len && line[i] != '#')
		*rest_len = (size_t)-1;
	return 1;
}

/*
 * Handles a "group"/"endgroup" line: 1 when it was one (a mistake counted
 * in r->errors), 0 for any other line.
 */
static int group_line(struct reader *r, size_t lineno, const char *text, size_t len)
{
	const char *rest;
	size_t rest_len;
	struct group *g;

	while (len && is_blank(*text)) {
		text++;
		len--;
	}
	while (len && is_blank(text[len - 1]))
		len--;
	if (keyword(text, len, "endgroup", &rest, &rest_len)) {
		if (rest_len) {
			r->errors++;
			error("%s:%zu: 'endgroup' takes nothing after it", r->path, lineno);
		} else if (r->open == -1) {
			r->errors++;
			error("%s:%zu: 'endgroup' without a group", r->path, lineno);
		}
		r->open = -1;
		return 1;
	}
	if (!keyword(text, len, "group", &rest, &rest_len))
		return 0;
	if (r->open >= 0) {
		r->errors++;
		error("%s:%zu: a group inside group '%s' (line %zu): groups do not nest; "
		      "end '%s' with endgroup first", r->path, lineno, r->groups[r->open].name,
		      r->groups[r->open].line, r->groups[r->open].name);
		return 1;
	}
	if (rest_len == (size_t)-1) {
		r->errors++;
		r->open = BROKEN_GROUP;
		error("%s:%zu: a group has one name: 'group NAME'", r->path, lineno);
		return 1;
	}
	if (check_group_name(r, lineno, rest, rest_len)) {
		r->errors++;
		r->open = BROKEN_GROUP;	/* its endgroup is no second mistake */
		return 1;
	}
	ALLOC_GROW(r->groups, r->nr_groups + 1, r->alloc_groups);
	g = &r->groups[r->nr_groups];
	g->name = xstrndup(rest, rest_len);
	g->line = lineno;
	g->settings = kconfig_new();
	g->emitted = 0;
	r->open = (long)r->nr_groups++;
	return 1;
}

static struct origin *find_origin(struct reader *r, const char *symbol)
{
	size_t i;

	for (i = 0; i < r->nr_origins; i++)
		if (!strcmp(r->origins[i].symbol, symbol))
			return &r->origins[i];
	return NULL;
}

/* A setting line (already known to parse): record where its symbol is. */
static void setting_line(struct reader *r, size_t lineno, const char *text, size_t len)
{
	struct kconfig *kc = kconfig_new();
	size_t iter = 0;
	const char *name, *value;

	if (kconfig_parse(kc, r->path, text, len, KCONFIG_LOOSE))
		BUG("%s:%zu: a line that parsed in the file does not parse alone", r->path, lineno);
	while (kconfig_next(kc, &iter, &name, &value)) {
		struct origin *o = find_origin(r, name);

		if (o && (o->group >= 0 || r->open >= 0)) {
			r->errors++;
			if (o->group >= 0)
				error("%s:%zu: CONFIG_%s is in group '%s' already (line %zu)", r->path,
				      lineno, name, r->groups[o->group].name, o->line);
			else
				error("%s:%zu: CONFIG_%s is an option of its own already (line %zu), "
				      "so it cannot be in group '%s' too", r->path, lineno, name,
				      o->line, r->groups[r->open].name);
			continue;
		}
		if (!o) {
			ALLOC_GROW(r->origins, r->nr_origins + 1, r->alloc_origins);
			o = &r->origins[r->nr_origins++];
			o->symbol = xstrdup(name);
			o->line = lineno;
			o->group = r->open;
		}
		if (r->open >= 0 && kconfig_set(r->groups[r->open].settings, name, value))
			BUG("cannot set the parsed CONFIG_%s=%s", name, value);
	}
	kconfig_free(kc);
}

static void add_group(struct plan_option **out, size_t *nr, size_t *alloc, struct group *g)
{
	struct plan_option *opt;

	ALLOC_GROW(*out, *nr + 1, *alloc);
	opt = &(*out)[(*nr)++];
	memset(opt, 0, sizeof(*opt));
	opt->name = xstrdup(g->name);
	opt->label = xstrdup(g->name);
	opt->is_group = 1;
	opt->settings = g->settings;
	g->settings = NULL;
	strvec_init(&opt->deps);
	g->emitted = 1;
}

int plan_parse_options(struct plan_option **out, size_t *nr, const char *path,
		       const char *buf, size_t len)
{
	struct reader r = { .path = path, .open = -1 };
	struct strbuf blanked = STRBUF_INIT;
	struct kconfig *all = kconfig_new();
	size_t pos = 0, lineno = 0, alloc = 0, iter = 0;
	const char *name, *value;
	int ret = -1;

	*out = NULL;
	*nr = 0;
	/* The group lines, blanked, so that the settings parse with their own line numbers. */
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		lineno++;
		if (group_line(&r, lineno, buf + pos, end - pos))
			strbuf_addch(&blanked, '#');
		else
			strbuf_add(&blanked, buf + pos, end - pos);
		strbuf_addch(&blanked, '\n');
		pos = nl ? end + 1 : len;
	}
	if (r.open >= 0) {
		r.errors++;
		error("%s:%zu: group '%s' has no endgroup", path, r.groups[r.open].line,
		      r.groups[r.open].name);
	}
	if (r.errors || kconfig_parse(all, path, blanked.buf, blanked.len, KCONFIG_LOOSE))
		goto out;
	if (!r.nr_groups) {
		add_all_single(out, nr, &alloc, all);
		ret = 0;
		goto out;
	}
	/* Which group each setting is in, line by line (they all parse). */
	r.open = -1;
	for (pos = 0, lineno = 0; pos < len; ) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		const char *rest;
		size_t rest_len, skip = 0;

		lineno++;
		while (pos + skip < end && is_blank(buf[pos + skip]))
			skip++;
		if (keyword(buf + pos + skip, end - pos - skip, "endgroup", &rest, &rest_len)) {
			r.open = -1;
		} else if (keyword(buf + pos + skip, end - pos - skip, "group", &rest, &rest_len)) {
			size_t g;

			for (g = 0; g < r.nr_groups; g++)
				if (r.groups[g].line == lineno)
					r.open = (long)g;
		} else {
			setting_line(&r, lineno, buf + pos, end - pos);
		}
		pos = nl ? end + 1 : len;
	}
	for (pos = 0; pos < r.nr_groups; pos++) {
		if (kconfig_count(r.groups[pos].settings))
			continue;
		r.errors++;
		error("%s:%zu: group '%s' is empty", path, r.groups[pos].line, r.groups[pos].name);
	}
	if (r.errors)
		goto out;
	/* In file order: a group where its first setting is, an option where its (last) line is. */
	while (kconfig_next(all, &iter, &name, &value)) {
		struct origin *o = find_origin(&r, name);

		if (!o || o->group < 0)
			add_single(out, nr, &alloc, name, value);
		else if (!r.groups[o->group].emitted)
			add_group(out, nr, &alloc, &r.groups[o->group]);
	}
	ret = 0;
out:
	if (ret) {
		plan_option_list_free(*out, *nr);
		*out = NULL;
		*nr = 0;
	}
	kconfig_free(all);
	strbuf_release(&blanked);
	reader_release(&r);
	return ret;
}

/*
 * --options is a fragment file or a list of symbols.  What names a
 * directory (or a FIFO, read once by plan_input_key() already), and a
 * list whose items are not symbol names -- a path, or a word such as
 * "adir" with no upper-case letter, as no Kconfig symbol has -- is a file
 * that is not there, not CONFIG_adir=y to measure as an unknown symbol.
 */
static int check_options_list(const char *arg)
{
	const char *p = arg;
	struct stat st;

	if (!stat(arg, &st))
		return error("--options '%s' is %s, not a fragment file or a list of options", arg,
			     S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
	for (;;) {
		const char *name;
		int upper = 0, quoted = 0;

		while (*p && strchr(", \t\n", *p))
			p++;
		if (!*p)
			break;
		for (name = p; (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			       (*p >= '0' && *p <= '9') || *p == '_'; p++)
			if (*p >= 'A' && *p <= 'Z')
				upper = 1;
		if (!upper || !strchr("=, \t\n", *p)) {
			while (*p && !strchr(", \t\n", *p))
				p++;
			return error("--options '%s' is neither a fragment file (there is no file of "
				     "that name, and '%.*s' is not a symbol name: those are upper "
				     "case, such as PROVE_LOCKING) nor a list of them", arg,
				     (int)(p - name), name);
		}
		/* the rest of the item: its value, perhaps a quoted string */
		for (; *p && (quoted || !strchr(", \t\n", *p)); p++) {
			if (quoted && *p == '\\' && p[1])
				p++;
			else if (*p == '"')
				quoted = !quoted;
		}
	}
	return 0;
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int plan_read_options(struct plan_option **out, size_t *nr, const struct plan_options *o)
{
	struct kconfig *kc = kconfig_new();
	size_t alloc = 0;
	int ret = -1;

	*out = NULL;
	*nr = 0;
	if (o->diff_old) {
		struct kconfig *a = NULL, *b = NULL;
		struct kconfig_changes ch = KCONFIG_CHANGES_INIT;
		size_t i;

		if (kconfig_load(&a, o->diff_old, 0) || kconfig_load(&b, o->diff_new, 0)) {
			kconfig_free(a);
			kconfig_free(b);
			goto out;
		}
		kconfig_diff_list(&ch, a, b);
		/* Every symbol NEW sets differently; one that NEW lacks is left alone. */
		for (i = 0; i < ch.nr; i++)
			if (ch.v[i].new_value && kconfig_set(kc, ch.v[i].name, ch.v[i].new_value))
				BUG("cannot set CONFIG_%s=%s read from '%s'", ch.v[i].name,
				    ch.v[i].new_value, o->diff_new);
		kconfig_changes_release(&ch);
		kconfig_free(a);
		kconfig_free(b);
		add_all_single(out, nr, &alloc, kc);
	} else if (is_file(o->options)) {
		struct strbuf sb = STRBUF_INIT;
		int bad = strbuf_read_file_max(&sb, o->options, KCONFIG_MAX_SIZE) < 0 ||
			  plan_parse_options(out, nr, o->options, sb.buf, sb.len);

		strbuf_release(&sb);
		if (bad)
			goto out;
	} else if (check_options_list(o->options) ||
		   kconfig_parse_list(kc, "--options", o->options)) {
		goto out;
	} else {
		add_all_single(out, nr, &alloc, kc);
	}
	if (!*nr) {
		error("no options to measure in '%s'", o->diff_old ? o->diff_new : o->options);
		goto out;
	}
	ret = 0;
out:
	if (ret) {
		plan_option_list_free(*out, *nr);
		*out = NULL;
		*nr = 0;
	}
	kconfig_free(kc);
	return ret;
}
