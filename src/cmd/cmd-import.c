/* cmd-import.c: kconfperf import hyperfine: measurements taken elsewhere, as an experiment. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "store/experiment.h"
#include "util/json.h"
#include "util/parse-options.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"
#include "util/write-file.h"

static const char *const import_usage[] = {
	"kconfperf import hyperfine FILE.json... [--dir DIR] [--baseline COMMAND]",
	"",
	"Turns hyperfine --export-json files into a new experiment that 'kconfperf",
	"report' reads: each results[] entry becomes a variant named by its command,",
	"each of its times one run with the metric wall.  The first command is the",
	"baseline unless --baseline names another.  A command found in several files",
	"gets the runs of all of them.  A run whose exit code is not 0 is stored as",
	"failed.  Nothing is stored unless every file is valid.",
	NULL,
};

/* The workload name imported runs get. */
#define IMPORT_WORKLOAD "hyperfine"

struct command_runs {
	char *command;
	double *times;
	int *exit_codes;
	size_t nr, alloc;
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

static int bad(const char *path, const struct json *j, const char *what)
{
	return error("%s:%u:%u: %s, not %s", path, j->line, j->column, what,
		     json_type_name(j->type));
}

static struct command_runs *command(struct import *im, const char *name)
{
	struct command_runs *c;
	size_t i;

	for (i = 0; i < im->nr; i++)
		if (!strcmp(im->cmds[i].command, name))
			return &im->cmds[i];
	ALLOC_GROW(im->cmds, im->nr + 1, im->alloc);
	c = &im->cmds[im->nr++];
	memset(c, 0, sizeof(*c));
	c->command = xstrdup(name);
	return c;
}

static int read_result(struct import *im, const char *path, const struct json *r)
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
		return error("%s:%u:%u: a result without \"command\"", path, r->line, r->column);
	if (cmd->type != JSON_STRING || !*cmd->string)
		return bad(path, cmd, "\"command\" must be a non-empty string");
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
		const struct json *t = &times->items[i];

		if (t->type != JSON_NUMBER)
			return bad(path, t, "a time must be a number");
		if (t->number < 0)
			return error("%s:%u:%u: negative time %g", path, t->line, t->column,
				     t->number);
		if (codes && codes->type == JSON_ARRAY &&
		    codes->items[i].type != JSON_NUMBER && codes->items[i].type != JSON_NULL)
			return bad(path, &codes->items[i], "an exit code must be a number or null");
	}
	c = command(im, cmd->string);
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

static int read_file(struct import *im, const char *path)
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
		ret = read_result(im, path, &results->items[i]);
out:
	json_free(root);
	return ret;
}

static int store_import(struct store *st, const struct import *im, size_t base,
			const struct strvec *files)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, most = 0;
	int pos = 1;

	for (i = 0; i < files->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", files->v[i]);
	for (i = 0; i < im->nr; i++)
		if (im->cmds[i].nr > most)
			most = im->cmds[i].nr;
	if (store_set_meta(st, "source", sb.buf) || store_set_meta(st, "imported", "hyperfine"))
		goto fail;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%zu", most);
	if (store_set_meta(st, "runs", sb.buf))
		goto fail;

	for (i = 0; i < im->nr; i++) {
		const struct command_runs *c = &im->cmds[i];
		struct store_variant v = STORE_VARIANT_INIT;

		v.name = c->command;
		v.kind = (char *)(i == base ? "baseline" : "command");
		v.status = (char *)"ok";
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
			r.status = (char *)(failed ? "failed" : "ok");
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

static void remove_db(const char *path)
{
	char *aux;

	unlink(path);
	aux = xstrfmt("%s-wal", path);
	unlink(aux);
	free(aux);
	aux = xstrfmt("%s-shm", path);
	unlink(aux);
	free(aux);
}

/*
 * Writes the whole import into a scratch database beside the real one and
 * renames it into place, so that a failure at any point stores nothing.
 */
static int import_hyperfine(const char *dir, const char *baseline,
			    int argc, const char **argv)
{
	struct import im = { 0 };
	struct strvec files = STRVEC_INIT;
	struct store *st = NULL;
	struct stat sb;
	size_t base = 0, i;
	char *db = experiment_path(dir, "kconfperf.db"), *tmp = NULL;
	struct strbuf target = STRBUF_INIT;
	int fd, ret = -1;

	for (i = 0; i < (size_t)argc; i++) {
		if (read_file(&im, argv[i]))
			goto out;
		strvec_push(&files, argv[i]);
	}
	if (baseline) {
		for (base = 0; base < im.nr; base++)
			if (!strcmp(im.cmds[base].command, baseline))
				break;
		if (base == im.nr) {
			struct strbuf names = STRBUF_INIT;

			for (i = 0; i < im.nr; i++)
				strbuf_addf(&names, "%s'%s'", i ? ", " : "", im.cmds[i].command);
			error("no command '%s' to use as the baseline (commands: %s)",
			      baseline, names.buf);
			strbuf_release(&names);
			goto out;
		}
	}
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
	tmp = xstrfmt("%s.import-%ld", target.buf, (long)getpid());
	remove_db(tmp);
	if (store_open(&st, tmp, 1) || store_import(st, &im, base, &files))
		goto out;
	store_close(st);
	st = NULL;
	if (rename(tmp, target.buf)) {
		error_errno("cannot rename '%s' to '%s'", tmp, target.buf);
		goto out;
	}
	if (!quiet)
		note("imported %zu command%s from %zu file%s into '%s' (baseline '%s')",
		     im.nr, im.nr == 1 ? "" : "s", files.nr, files.nr == 1 ? "" : "s",
		     dir, im.cmds[base].command);
	ret = 0;
out:
	store_close(st);
	if (ret && tmp)
		remove_db(tmp);
	free(tmp);
	free(db);
	strbuf_release(&target);
	strvec_clear(&files);
	import_release(&im);
	return ret;
}

int cmd_import(int argc, const char **argv)
{
	const char *dir = EXPERIMENT_DEFAULT_DIR, *baseline = NULL;
	const struct option opts[] = {
		OPT_STRING(0, "dir", &dir, "DIR", "experiment directory to create "
			   "(default kconfperf-results)"),
		OPT_STRING(0, "baseline", &baseline, "COMMAND",
			   "the command to compare the others with (default: the first)"),
		OPT_BOOL('q', "quiet", &quiet, "print nothing on success"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, import_usage);
	if (argc < 1)
		usage_with_options(import_usage, opts);
	if (strcmp(argv[0], "hyperfine"))
		usage_error("cannot import '%s'; the format kconfperf reads is 'hyperfine'",
			    argv[0]);
	if (argc < 2)
		usage_error("import hyperfine needs at least one FILE.json");
	return import_hyperfine(dir, baseline, argc - 1, argv + 1) ? 1 : 0;
}
