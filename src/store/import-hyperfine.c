/* import-hyperfine.c: hyperfine --export-json files as a new experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/experiment.h"
#include "store/import-hyperfine.h"
#include "store/meta-keys.h"
#include "store/sample-range.h"
#include "util/json.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"
#include "util/write-file.h"

struct command_runs {
	char *command;
	double *times;
	int *exit_codes;
	size_t nr, alloc;
	/* Where it was first seen: the file's index and its result's index. */
	size_t file, result;
	size_t nr_files;
};

struct import {
	struct command_runs *cmds;
	size_t nr, alloc;
};

static void import_release(struct import *im)
{
	size_t i;

	for (i = 0; i < im->nr; i++) {
		free(im->cmds[i].command);
		free(im->cmds[i].times);
		free(im->cmds[i].exit_codes);
	}
	free(im->cmds);
}

void import_result_release(struct import_result *r)
{
	free(r->baseline);
	r->baseline = NULL;
}

static int bad(const char *path, const struct json *j, const char *what)
{
	return error("%s:%u:%u: %s, not %s", path, j->line, j->column, what,
		     json_type_name(j->type));
}

static struct command_runs *find_command(struct import *im, const char *name)
{
	size_t i;

	for (i = 0; i < im->nr; i++)
		if (!strcmp(im->cmds[i].command, name))
			return &im->cmds[i];
	return NULL;
}

static struct command_runs *add_command(struct import *im, const char *name, size_t file,
					size_t result)
{
	struct command_runs *c;

	ALLOC_GROW(im->cmds, im->nr + 1, im->alloc);
	c = &im->cmds[im->nr++];
	memset(c, 0, sizeof(*c));
	c->command = xstrdup(name);
	c->file = file;
	c->result = result;
	return c;
}

/* Checks time i of result index (command cmd): a number of seconds above 0. */
static int check_time(const char *path, size_t index, const char *cmd, size_t i,
		      const struct json *t)
{
	const char *why;

	if (t->type != JSON_NUMBER)
		return bad(path, t, "a time must be a number");
	if (!(t->number > 0))
		return error("%s:%u:%u: results[%zu] ('%s'): times[%zu] is %g; a run's time "
			     "in seconds is above 0", path, t->line, t->column, index, cmd, i,
			     t->number);
	/* The protocol's range (sample-range.h): a nanosecond to 116 days. */
	why = sample_range_check(t->number, "s");
	if (why)
		return error("%s:%u:%u: results[%zu] ('%s'): times[%zu] is %g s, which %s: "
			     "not a run's time", path, t->line, t->column, index, cmd, i,
			     t->number, why);
	return 0;
}

/* Exit code i: null (killed by a signal) or an integer. */
static int check_exit_code(const char *path, size_t index, const char *cmd, size_t i,
			   const struct json *code)
{
	if (code->type == JSON_NULL)
		return 0;
	if (code->type != JSON_NUMBER)
		return bad(path, code, "an exit code must be a number or null");
	if (code->number != floor(code->number) || code->number < INT_MIN ||
	    code->number > INT_MAX)
		return error("%s:%u:%u: results[%zu] ('%s'): exit_codes[%zu] is %g, not an "
			     "integer exit code", path, code->line, code->column, index, cmd, i,
			     code->number);
	return 0;
}

static int read_result(struct import *im, const char *path, size_t file, size_t index,
		       const struct json *r)
{
	const struct json *cmd, *times, *codes;
	struct command_runs *c;
	size_t i;

	if (r->type != JSON_OBJECT)
		return bad(path, r, "a result must be an object");
	cmd = json_get(r, "command");
	times = json_get(r, "times");
	codes = json_get(r, "exit_codes");
	if (!cmd)
		return error("%s:%u:%u: results[%zu] has no \"command\"", path, r->line,
			     r->column, index);
	if (cmd->type != JSON_STRING)
		return bad(path, cmd, "\"command\" must be a non-empty string");
	if (!*cmd->string)
		return error("%s:%u:%u: \"command\" is empty; it names what was run", path,
			     cmd->line, cmd->column);
	if (!times)
		return error("%s:%u:%u: result '%s' has no \"times\" (export with hyperfine "
			     "1.9 or later)", path, r->line, r->column, cmd->string);
	if (times->type != JSON_ARRAY)
		return bad(path, times, "\"times\" must be an array of numbers");
	if (!times->nr)
		return error("%s:%u:%u: result '%s' has no times", path, times->line,
			     times->column, cmd->string);
	if (codes && codes->type != JSON_NULL &&
	    (codes->type != JSON_ARRAY || codes->nr != times->nr))
		return error("%s:%u:%u: \"exit_codes\" must be an array as long as \"times\"",
			     path, codes->line, codes->column);
	for (i = 0; i < times->nr; i++) {
		if (check_time(path, index, cmd->string, i, &times->items[i]))
			return -1;
		if (codes && codes->type == JSON_ARRAY &&
		    check_exit_code(path, index, cmd->string, i, &codes->items[i]))
			return -1;
	}
	c = find_command(im, cmd->string);
	if (c && c->file == file)
		return error("%s:%u:%u: results[%zu] repeats the command '%s' of results[%zu]; "
			     "each command comes once in a file", path, cmd->line, cmd->column,
			     index, cmd->string, c->result);
	if (!c)
		c = add_command(im, cmd->string, file, index);
	c->file = file;
	c->result = index;
	c->nr_files++;
	for (i = 0; i < times->nr; i++) {
		const struct json *code = codes && codes->type == JSON_ARRAY ?
			&codes->items[i] : NULL;

		ALLOC_GROW(c->times, c->nr + 1, c->alloc);
		c->exit_codes = xrealloc(c->exit_codes, c->alloc * sizeof(*c->exit_codes));
		c->times[c->nr] = times->items[i].number;
		/* null: killed by a signal (hyperfine writes no code) */
		c->exit_codes[c->nr] = !code ? 0 : code->type == JSON_NUMBER ?
			(int)code->number : -1;
		c->nr++;
	}
	return 0;
}

static int read_export(struct import *im, const char *path, size_t file)
{
	struct json *root;
	const struct json *results;
	size_t i;
	int ret = 0;

	if (json_parse_file(&root, path))
		return -1;
	if (root->type != JSON_OBJECT) {
		ret = bad(path, root, "expected hyperfine's export, an object with \"results\"");
		goto out;
	}
	results = json_get(root, "results");
	if (!results) {
		ret = error("%s:%u:%u: no \"results\" (is this a hyperfine --export-json file?)",
			    path, root->line, root->column);
		goto out;
	}
	if (results->type != JSON_ARRAY) {
		ret = bad(path, results, "\"results\" must be an array");
		goto out;
	}
	if (!results->nr) {
		ret = error("%s:%u:%u: \"results\" is empty", path, results->line,
			    results->column);
		goto out;
	}
	for (i = 0; i < results->nr && !ret; i++)
		ret = read_result(im, path, file, i, &results->items[i]);
out:
	json_free(root);
	return ret;
}

static int store_import(struct store *st, const struct import *im, size_t base,
			const char *const *files, size_t nr_files)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, most = 0;
	int pos = 1;

	for (i = 0; i < nr_files; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", files[i]);
	for (i = 0; i < im->nr; i++)
		if (im->cmds[i].nr > most)
			most = im->cmds[i].nr;
	if (store_set_meta(st, META_SOURCE, sb.buf) || store_set_meta(st, META_IMPORTED, "hyperfine"))
		goto fail;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%zu", most);
	if (store_set_meta(st, META_RUNS, sb.buf))
		goto fail;

	for (i = 0; i < im->nr; i++) {
		const struct command_runs *c = &im->cmds[i];
		struct store_variant v = STORE_VARIANT_INIT;

		v.name = c->command;
		v.kind = (char *)(i == base ? "baseline" :
				  !strcmp(c->command, VARIANT_AA_NAME) ? VARIANT_AA_NAME :
				  "command");
		v.status = VARIANT_OK;
		v.position = i == base ? 0 : pos++;
		if (store_put_variant(st, &v))
			goto fail;
		for (j = 0; j < c->nr; j++) {
			struct store_run r = STORE_RUN_INIT;
			char *err = NULL;
			int failed = c->exit_codes[j] != 0;

			if (failed)
				err = c->exit_codes[j] < 0 ? xstrdup("killed by a signal") :
					xstrfmt("exit code %d", c->exit_codes[j]);
			r.variant_id = v.id;
			r.workload = (char *)IMPORT_WORKLOAD;
			r.round = (int)j;
			r.seq = (int)i;
			r.status = failed ? RUN_EXIT_FAILED : RUN_OK;
			r.error = err;
			r.wall_s = c->times[j];
			r.boot_s = NAN;
			if (store_add_run(st, &r, NULL, 0)) {
				free(err);
				goto fail;
			}
			free(err);
		}
	}
	strbuf_release(&sb);
	return 0;
fail:
	strbuf_release(&sb);
	return -1;
}

static int find_baseline(const struct import *im, const char *baseline, size_t *out)
{
	struct strbuf names = STRBUF_INIT;
	size_t i;

	*out = 0;
	if (!baseline)
		return 0;
	for (i = 0; i < im->nr; i++)
		if (!strcmp(im->cmds[i].command, baseline)) {
			*out = i;
			return 0;
		}
	for (i = 0; i < im->nr; i++)
		strbuf_addf(&names, "%s'%s'", i ? ", " : "", im->cmds[i].command);
	error("no command '%s' to use as the baseline (commands: %s)", baseline, names.buf);
	strbuf_release(&names);
	return -1;
}

int import_hyperfine(const char *dir, const char *const *files, size_t nr_files,
		     const char *baseline, struct import_result *result)
{
	struct import im = { 0 };
	struct store *st = NULL;
	struct strbuf target = STRBUF_INIT;
	char *db = experiment_path(dir, "kconfperf.db");
	struct stat sb;
	size_t base, i;
	int fd, ret = -1;

	for (i = 0; i < nr_files; i++)
		if (read_export(&im, files[i], i))
			goto out;
	if (find_baseline(&im, baseline, &base))
		goto out;
	if (!stat(db, &sb)) {
		error("'%s' already holds an experiment; import into a new --dir", dir);
		goto out;
	}
	if (mkdir_p(dir, 0755))
		goto out;
	/* A kconfperf.db that is a dangling link is created where it points. */
	if (write_target_resolve(&target, &fd, db) != WRITE_REPLACE) {
		error("cannot create the database '%s': not a regular file", db);
		goto out;
	}
	if (store_create_scratch(&st, target.buf))
		goto out;
	if (store_import(st, &im, base, files, nr_files))
		goto out;
	ret = store_create_commit(st);
	st = NULL;
	if (ret)
		goto out;
	result->nr_commands = im.nr;
	result->baseline = xstrdup(im.cmds[base].command);
	result->nr_merged = 0;
	for (i = 0; i < im.nr; i++)
		if (im.cmds[i].nr_files > 1)
			result->nr_merged++;
out:
	store_close(st);
	free(db);
	strbuf_release(&target);
	import_release(&im);
	return ret;
}
