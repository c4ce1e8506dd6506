/* store-runs.c: the runs and their samples in the experiment database. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "store/status.h"
#include "store/store-internal.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

size_t store_samples_of_run(const struct store_sample_row *s, size_t nr, int64_t run_id,
			    size_t *first)
{
	size_t lo = 0, hi = nr, n = 0;

	/* The first sample with run_id >= the one asked for. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].run_id < run_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo + n < nr && s[lo + n].run_id == run_id)
		n++;
	return n;
}

void store_run_release(struct store_run *r)
{
	free(r->workload);
	free(r->accel);
	free(r->error);
	free(r->console_tail);
	free(r->started);
	free(r->clocksource);
	memset(r, 0, sizeof(*r));
	r->clock = VM_CLOCK_HOST;
	r->icount_shift = -1;
	r->layout_seed = -1;
}

int store_add_run(struct store *st, struct store_run *r,
		  const struct store_sample *samples, size_t nr_samples)
{
	sqlite3_stmt *s = NULL;
	char now[32];
	size_t i;
	int schema;

	/* A savepoint nests inside a caller's transaction or is one itself. */
	if (store_exec_sql(st, "SAVEPOINT add_run"))
		return -1;
	store_utc_now(now, sizeof(now));
	if (store_prepare(st, &s, "INSERT INTO run (variant_id, workload, round, seq, warmup,"
		    " accel, status, error, console_tail, wall_s, boot_s, started,"
		    " clock, icount_shift, layout_seed, clocksource, guests)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,"
		    " ?17)"))
		goto fail;
	sqlite3_bind_int64(s, 1, r->variant_id);
	store_bind_text(s, 2, r->workload);
	sqlite3_bind_int(s, 3, r->round);
	sqlite3_bind_int(s, 4, r->seq);
	sqlite3_bind_int(s, 5, r->warmup);
	store_bind_text(s, 6, r->accel);
	store_bind_text(s, 7, run_status_name(r->status));
	store_bind_text(s, 8, r->error);
	store_bind_text(s, 9, r->console_tail);
	sqlite3_bind_double(s, 10, r->wall_s);
	if (isnan(r->boot_s))
		sqlite3_bind_null(s, 11);
	else
		sqlite3_bind_double(s, 11, r->boot_s);
	store_bind_text(s, 12, r->started ? r->started : now);
	store_bind_text(s, 13, vm_clock_name(r->clock));
	if (r->icount_shift < 0)
		sqlite3_bind_null(s, 14);
	else
		sqlite3_bind_int(s, 14, r->icount_shift);
	if (r->layout_seed < 0)
		sqlite3_bind_null(s, 15);
	else
		sqlite3_bind_int64(s, 15, r->layout_seed);
	store_bind_text(s, 16, r->clocksource);
	if (r->guests > 0)
		sqlite3_bind_int(s, 17, r->guests);
	else
		sqlite3_bind_null(s, 17);
	if (store_step_done(st, s, "cannot store run"))
		goto fail;
	r->id = sqlite3_last_insert_rowid(store_sqlite(st, &schema));
	for (i = 0; i < nr_samples; i++) {
		const struct store_sample *x = &samples[i];

		if (store_prepare(st, &s, "INSERT INTO sample (run_id, iteration, metric, unit,"
			    " value, higher_is_better) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"))
			goto fail;
		sqlite3_bind_int64(s, 1, r->id);
		sqlite3_bind_int(s, 2, x->iteration);
		store_bind_text(s, 3, x->metric);
		store_bind_text(s, 4, x->unit);
		sqlite3_bind_double(s, 5, x->value);
		sqlite3_bind_int(s, 6, x->higher_is_better);
		if (store_step_done(st, s, "cannot store sample"))
			goto fail;
	}
	return store_exec_sql(st, "RELEASE add_run");
fail:
	store_exec_sql(st, "ROLLBACK TO add_run");
	store_exec_sql(st, "RELEASE add_run");
	return -1;
}

int store_has_run(struct store *st, int64_t variant_id, const char *workload,
		  int round, int warmup)
{
	sqlite3_stmt *s;
	int rc, ret;

	if (store_prepare(st, &s, "SELECT 1 FROM run WHERE variant_id = ?1 AND workload = ?2"
		    " AND round = ?3 AND warmup = ?4"))
		return -1;
	sqlite3_bind_int64(s, 1, variant_id);
	store_bind_text(s, 2, workload);
	sqlite3_bind_int(s, 3, round);
	sqlite3_bind_int(s, 4, warmup);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		ret = 1;
	else if (rc == SQLITE_DONE)
		ret = 0;
	else
		ret = store_db_error(st, "cannot look up run");
	sqlite3_finalize(s);
	return ret;
}

int64_t store_count_runs(struct store *st)
{
	sqlite3_stmt *s;
	int64_t n = -1;

	if (store_prepare(st, &s, "SELECT count(*) FROM run"))
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

int store_get_runs(struct store *st, struct store_run **out, size_t *nr)
{
	sqlite3_stmt *s;
	struct store_run *r = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	*out = NULL;
	*nr = 0;
	/* A read-only archive of schema 1 or 2 has no clock columns: host time. */
	/* A read-only archive of schema 7 has no guests column: one at a time. */
	if (store_prepare(st, &s, store_schema(st) >= 8 ?
		    "SELECT r.id, r.variant_id, r.workload, r.round, r.seq,"
		    " r.warmup, r.accel, r.status, r.error, r.console_tail, r.wall_s,"
		    " r.boot_s, r.started, r.clock, r.icount_shift, r.layout_seed, r.clocksource,"
		    " r.guests"
		    " FROM run r JOIN variant v ON v.id = r.variant_id"
		    " ORDER BY v.position, v.id, r.workload, r.warmup DESC, r.round, r.seq, r.id" :
		    store_schema(st) >= 3 ?
		    "SELECT r.id, r.variant_id, r.workload, r.round, r.seq,"
		    " r.warmup, r.accel, r.status, r.error, r.console_tail, r.wall_s,"
		    " r.boot_s, r.started, r.clock, r.icount_shift, r.layout_seed, r.clocksource,"
		    " NULL"
		    " FROM run r JOIN variant v ON v.id = r.variant_id"
		    " ORDER BY v.position, v.id, r.workload, r.warmup DESC, r.round, r.seq, r.id" :
		    "SELECT r.id, r.variant_id, r.workload, r.round, r.seq,"
		    " r.warmup, r.accel, r.status, r.error, r.console_tail, r.wall_s,"
		    " r.boot_s, r.started, NULL, NULL, NULL, NULL, NULL"
		    " FROM run r JOIN variant v ON v.id = r.variant_id"
		    " ORDER BY v.position, v.id, r.workload, r.warmup DESC, r.round, r.seq, r.id"))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_run *e;

		ALLOC_GROW(r, n + 1, alloc);
		e = &r[n++];
		memset(e, 0, sizeof(*e));
		e->id = sqlite3_column_int64(s, 0);
		e->variant_id = sqlite3_column_int64(s, 1);
		e->workload = store_column_text(s, 2);
		e->round = sqlite3_column_int(s, 3);
		e->seq = sqlite3_column_int(s, 4);
		e->warmup = sqlite3_column_int(s, 5);
		e->accel = store_column_text(s, 6);
		e->error = store_column_text(s, 8);
		e->console_tail = store_column_text(s, 9);
		e->wall_s = sqlite3_column_type(s, 10) == SQLITE_NULL ?
			NAN : sqlite3_column_double(s, 10);
		e->boot_s = sqlite3_column_type(s, 11) == SQLITE_NULL ?
			NAN : sqlite3_column_double(s, 11);
		e->started = store_column_text(s, 12);
		/* the clock's name parsed here, once: NULL in runs older than it, host time */
		if (vm_clock_from_name(&e->clock, store_column_str(s, 13)))
			e->clock = VM_CLOCK_HOST;
		e->icount_shift = sqlite3_column_type(s, 14) == SQLITE_NULL ?
			-1 : sqlite3_column_int(s, 14);
		e->layout_seed = sqlite3_column_type(s, 15) == SQLITE_NULL ?
			-1 : sqlite3_column_int64(s, 15);
		e->clocksource = store_column_text(s, 16);
		e->guests = sqlite3_column_type(s, 17) == SQLITE_NULL ? 0 : sqlite3_column_int(s, 17);
		if (store_run_status_of(st, &e->status, store_column_str(s, 7))) {
			char *row = xstrfmt("%lld", (long long)e->id);

			store_unknown_status(st, "run", row, store_column_str(s, 7));
			free(row);
			break;
		}
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		store_db_error(st, "cannot read runs");
	if (rc != SQLITE_DONE) {
		store_runs_free(r, n);
		return -1;
	}
	*out = r;
	*nr = n;
	return 0;
}

void store_runs_free(struct store_run *r, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		store_run_release(&r[i]);
	free(r);
}

int store_get_samples(struct store *st, struct store_sample_row **out, size_t *nr)
{
	sqlite3_stmt *s;
	struct store_sample_row *x = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	*out = NULL;
	*nr = 0;
	if (store_prepare(st, &s, "SELECT run_id, iteration, metric, unit, value, higher_is_better"
		    " FROM sample ORDER BY run_id, metric, iteration"))
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_sample_row *e;

		ALLOC_GROW(x, n + 1, alloc);
		e = &x[n++];
		e->run_id = sqlite3_column_int64(s, 0);
		e->iteration = sqlite3_column_int(s, 1);
		e->metric = store_column_text(s, 2);
		e->unit = store_column_text(s, 3);
		e->value = sqlite3_column_double(s, 4);
		e->higher_is_better = sqlite3_column_int(s, 5);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_sample_rows_free(x, n);
		return store_db_error(st, "cannot read samples");
	}
	*out = x;
	*nr = n;
	return 0;
}

void store_sample_rows_free(struct store_sample_row *s, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(s[i].metric);
		free(s[i].unit);
	}
	free(s);
}
