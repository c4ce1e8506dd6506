/* store-meter.c: the instruction meter's counts per run in the experiment database. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "store/meter-file.h"
#include "store/profile.h"
#include "store/store-internal.h"
#include "store/store-meter.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* The first schema with the meter's tables. */
#define METER_SCHEMA 5

static const char *const phase_names[STORE_METER_NR_PHASES] = {
	[STORE_METER_BOOT] = METER_PHASE_BOOT,
	[STORE_METER_WORK] = METER_PHASE_WORK,
	[STORE_METER_ALL] = METER_PHASE_ALL,
};

const char *store_meter_phase_name(enum store_meter_phase phase)
{
	return (size_t)phase < STORE_METER_NR_PHASES ? phase_names[phase] : "unknown";
}

int store_meter_phase_parse(enum store_meter_phase *out, const char *name)
{
	size_t i;

	for (i = 0; i < STORE_METER_NR_PHASES; i++)
		if (!strcmp(name, phase_names[i])) {
			*out = (enum store_meter_phase)i;
			return 0;
		}
	return -1;
}

void store_meter_release(struct store_meter *m)
{
	if (!m)
		return;
	free(m->note);
	memset(m, 0, sizeof(*m));
	m->boot = m->work = -1;
}

static int prepare(struct store *st, sqlite3_stmt **out, const char *sql)
{
	int schema;

	if (sqlite3_prepare_v2(store_sqlite(st, &schema), sql, -1, out, NULL) != SQLITE_OK)
		return store_db_error(st, "cannot prepare statement");
	return 0;
}

/* The id of a function name, added when new: >= 0, or -1 with a message. */
static int64_t function_id(struct store *st, const char *name)
{
	sqlite3_stmt *s;
	int64_t id = -1;
	int rc;

	if (prepare(st, &s, "INSERT OR IGNORE INTO meter_function (name) VALUES (?1)"))
		return -1;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_db_error(st, "cannot store a function name");
	if (prepare(st, &s, "SELECT id FROM meter_function WHERE name = ?1"))
		return -1;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(s) == SQLITE_ROW)
		id = sqlite3_column_int64(s, 0);
	else
		store_db_error(st, "cannot read a function name's id");
	sqlite3_finalize(s);
	return id;
}

static int add_phase(struct store *st, int64_t run_id, enum store_meter_phase phase,
		     const struct profile *p)
{
	int64_t *ids = xcalloc(p->nr ? p->nr : 1, sizeof(*ids));
	struct strbuf blob = STRBUF_INIT;
	sqlite3_stmt *s = NULL;
	size_t i;
	int ret = -1;

	for (i = 0; i < p->nr; i++) {
		ids[i] = function_id(st, p->v[i].name);
		if (ids[i] < 0)
			goto out;
	}
	if (profile_encode(&blob, p, ids) ||
	    prepare(st, &s, "INSERT INTO meter_profile (run_id, phase, functions, data)"
		    " VALUES (?1, ?2, ?3, ?4)"))
		goto out;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_text(s, 2, store_meter_phase_name(phase), -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)p->nr);
	sqlite3_bind_blob(s, 4, blob.buf, (int)blob.len, SQLITE_TRANSIENT);
	if (sqlite3_step(s) != SQLITE_DONE) {
		store_db_error(st, "cannot store a per-function profile");
		goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(s);
	strbuf_release(&blob);
	free(ids);
	return ret;
}

static void bind_count(sqlite3_stmt *s, int i, int64_t v)
{
	if (v < 0)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int64(s, i, v);
}

int store_add_meter(struct store *st, int64_t run_id, const struct store_meter *m,
		    const struct profile *const phases[STORE_METER_NR_PHASES])
{
	sqlite3_stmt *s = NULL;
	int i;

	if (!store_schema_at_least(st, METER_SCHEMA))
		return error("%s: the database has no tables for the meter's counts", store_path(st));
	if (store_exec(st, "SAVEPOINT add_meter", "cannot store the meter's counts"))
		return -1;
	if (prepare(st, &s, "INSERT INTO meter (run_id, total, before_kernel, kernel,"
		    " kernel_other, user_space, idle, boot, work, iterations, ops, has_map, note)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"))
		goto fail;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, (sqlite3_int64)m->total);
	sqlite3_bind_int64(s, 3, (sqlite3_int64)m->before_kernel);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)m->kernel);
	sqlite3_bind_int64(s, 5, (sqlite3_int64)m->kernel_other);
	sqlite3_bind_int64(s, 6, (sqlite3_int64)m->user);
	sqlite3_bind_int64(s, 7, (sqlite3_int64)m->idle);
	bind_count(s, 8, m->boot);
	bind_count(s, 9, m->work);
	sqlite3_bind_int(s, 10, m->iterations);
	sqlite3_bind_double(s, 11, m->ops);
	sqlite3_bind_int(s, 12, m->has_map);
	if (m->note)
		sqlite3_bind_text(s, 13, m->note, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(s) != SQLITE_DONE) {
		store_db_error(st, "cannot store the meter's counts");
		goto fail;
	}
	sqlite3_finalize(s);
	s = NULL;
	for (i = 0; i < STORE_METER_NR_PHASES; i++)
		if (phases && phases[i] && phases[i]->nr &&
		    add_phase(st, run_id, (enum store_meter_phase)i, phases[i]))
			goto fail;
	return store_exec(st, "RELEASE add_meter", "cannot store the meter's counts");
fail:
	sqlite3_finalize(s);
	store_exec(st, "ROLLBACK TO add_meter", "cannot store the meter's counts");
	store_exec(st, "RELEASE add_meter", "cannot store the meter's counts");
	return -1;
}

static int64_t column_count(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, i);
}

int store_get_meter(struct store *st, int64_t run_id, struct store_meter *out)
{
	sqlite3_stmt *s;
	int rc;

	store_meter_release(out);
	if (!store_schema_at_least(st, METER_SCHEMA))
		return 0;
	if (prepare(st, &s, "SELECT total, before_kernel, kernel, kernel_other, user_space, idle,"
		    " boot, work, iterations, ops, has_map, note FROM meter WHERE run_id = ?1"))
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const unsigned char *note = sqlite3_column_text(s, 11);

		out->total = (uint64_t)sqlite3_column_int64(s, 0);
		out->before_kernel = (uint64_t)sqlite3_column_int64(s, 1);
		out->kernel = (uint64_t)sqlite3_column_int64(s, 2);
		out->kernel_other = (uint64_t)sqlite3_column_int64(s, 3);
		out->user = (uint64_t)sqlite3_column_int64(s, 4);
		out->idle = (uint64_t)sqlite3_column_int64(s, 5);
		out->boot = column_count(s, 6);
		out->work = column_count(s, 7);
		out->iterations = sqlite3_column_int(s, 8);
		out->ops = sqlite3_column_double(s, 9);
		out->has_map = sqlite3_column_int(s, 10);
		out->note = note ? xstrdup((const char *)note) : NULL;
		rc = 1;
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = store_db_error(st, "cannot read the meter's counts");
	}
	sqlite3_finalize(s);
	return rc;
}

/* The name of function id (cached in names, which grows as ids are met). */
static const char *name_of(struct store *st, int64_t id, char ***names, size_t *nr)
{
	sqlite3_stmt *s;

	if (id < 0 || id > 100000000)
		return NULL;
	if ((size_t)id >= *nr) {
		size_t want = (size_t)id + 1024;

		*names = xrealloc(*names, want * sizeof(**names));
		memset(*names + *nr, 0, (want - *nr) * sizeof(**names));
		*nr = want;
	}
	if ((*names)[id])
		return (*names)[id];
	if (prepare(st, &s, "SELECT name FROM meter_function WHERE id = ?1"))
		return NULL;
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW)
		(*names)[id] = xstrdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return (*names)[id];
}

static int read_profile(struct store *st, int64_t run_id, enum store_meter_phase phase,
			struct profile *out, char ***names, size_t *nr_names)
{
	sqlite3_stmt *s;
	int64_t *ids = NULL;
	uint64_t *counts = NULL;
	size_t nr = 0, i;
	int rc;

	if (!store_schema_at_least(st, METER_SCHEMA))
		return 0;
	if (prepare(st, &s, "SELECT data FROM meter_profile WHERE run_id = ?1 AND phase = ?2"))
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_text(s, 2, store_meter_phase_name(phase), -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		rc = 0;
		goto out;
	}
	if (rc != SQLITE_ROW) {
		rc = store_db_error(st, "cannot read a per-function profile");
		goto out;
	}
	if (profile_decode(sqlite3_column_blob(s, 0), (size_t)sqlite3_column_bytes(s, 0),
			   &ids, &counts, &nr)) {
		rc = error("%s: run %lld's %s profile does not decode", store_path(st),
			   (long long)run_id, store_meter_phase_name(phase));
		goto out;
	}
	for (i = 0; i < nr; i++) {
		const char *name = name_of(st, ids[i], names, nr_names);

		if (!name) {
			rc = error("%s: run %lld's %s profile names function %lld, which is "
				   "not stored", store_path(st), (long long)run_id,
				   store_meter_phase_name(phase), (long long)ids[i]);
			goto out;
		}
		profile_add(out, name, (double)counts[i]);
	}
	profile_merge(out);
	rc = 1;
out:
	sqlite3_finalize(s);
	free(ids);
	free(counts);
	return rc;
}

static void free_names(char **names, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

int store_get_run_profile(struct store *st, int64_t run_id, enum store_meter_phase phase,
			  struct profile *out)
{
	char **names = NULL;
	size_t nr_names = 0;
	int rc = read_profile(st, run_id, phase, out, &names, &nr_names);

	free_names(names, nr_names);
	return rc;
}

int store_get_variant_profile(struct store *st, int64_t variant_id, const char *workload,
			      enum store_meter_phase phase, int per_op, struct profile *out,
			      int *nr_runs)
{
	struct profile one = PROFILE_INIT, sum = PROFILE_INIT;
	char **names = NULL;
	size_t nr_names = 0;
	sqlite3_stmt *s = NULL;
	int rc, ret = -1;

	*nr_runs = 0;
	if (!store_schema_at_least(st, METER_SCHEMA))
		return 0;
	if (prepare(st, &s, "SELECT r.id, m.ops FROM run r JOIN meter m ON m.run_id = r.id"
		    " WHERE r.variant_id = ?1 AND r.workload = ?2 AND r.warmup = 0"
		    " AND r.status = 'ok' ORDER BY r.id"))
		return -1;
	sqlite3_bind_int64(s, 1, variant_id);
	sqlite3_bind_text(s, 2, workload, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		double ops = sqlite3_column_double(s, 1);

		profile_release(&one);
		rc = read_profile(st, sqlite3_column_int64(s, 0), phase, &one, &names, &nr_names);
		if (rc < 0)
			goto out;
		if (!rc)
			continue;
		profile_normalize(&one);
		if (per_op && phase == STORE_METER_WORK && ops > 0)
			profile_scale(&one, 1 / ops);
		profile_add_all(&sum, &one);
		(*nr_runs)++;
	}
	if (rc != SQLITE_DONE) {
		store_db_error(st, "cannot read the runs' profiles");
		goto out;
	}
	if (*nr_runs)
		profile_scale(&sum, 1.0 / *nr_runs);
	profile_add_all(out, &sum);
	ret = 0;
out:
	sqlite3_finalize(s);
	profile_release(&one);
	profile_release(&sum);
	free_names(names, nr_names);
	return ret;
}
