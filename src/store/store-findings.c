/* store-findings.c: the kernel's own reports per run in the experiment database. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "store/store-findings.h"
#include "store/store-internal.h"
#include "store/store.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* The first schema with the finding table. */
#define FINDINGS_SCHEMA 6

int store_add_findings(struct store *st, int64_t run_id, const struct store_finding *f,
		       size_t nr)
{
	sqlite3_stmt *s = NULL;
	int schema;
	size_t i;

	if (!nr)
		return 0;
	if (!store_schema_at_least(st, FINDINGS_SCHEMA))
		return error("%s: the database has no table for findings", store_path(st));
	if (store_exec(st, "SAVEPOINT add_findings", "cannot store a run's findings"))
		return -1;
	if (sqlite3_prepare_v2(store_sqlite(st, &schema),
			       "INSERT INTO finding (run_id, position, kind, line, count, text)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6)", -1, &s, NULL) != SQLITE_OK) {
		store_db_error(st, "cannot prepare statement");
		goto fail;
	}
	for (i = 0; i < nr; i++) {
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, run_id);
		sqlite3_bind_int64(s, 2, (sqlite3_int64)i);
		sqlite3_bind_text(s, 3, finding_kind_name(f[i].kind), -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, f[i].line, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(s, 5, f[i].count);
		sqlite3_bind_text(s, 6, f[i].text ? f[i].text : "", -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s) != SQLITE_DONE) {
			store_db_error(st, "cannot store a run's findings");
			goto fail;
		}
	}
	sqlite3_finalize(s);
	return store_exec(st, "RELEASE add_findings", "cannot store a run's findings");
fail:
	sqlite3_finalize(s);
	store_exec(st, "ROLLBACK TO add_findings", "cannot store a run's findings");
	store_exec(st, "RELEASE add_findings", "cannot store a run's findings");
	return -1;
}

int store_get_findings(struct store *st, struct store_finding **out, size_t *nr)
{
	struct store_finding *v = NULL;
	size_t n = 0, alloc = 0;
	sqlite3_stmt *s = NULL;
	int schema, rc, ret = -1;

	*out = NULL;
	*nr = 0;
	if (!store_schema_at_least(st, FINDINGS_SCHEMA))
		return 0;
	if (sqlite3_prepare_v2(store_sqlite(st, &schema),
			       "SELECT run_id, position, kind, line, count, text FROM finding"
			       " ORDER BY run_id, position", -1, &s, NULL) != SQLITE_OK)
		return store_db_error(st, "cannot prepare statement");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_finding *f;
		const char *kind = (const char *)sqlite3_column_text(s, 2);

		ALLOC_GROW(v, n + 1, alloc);
		f = &v[n];
		memset(f, 0, sizeof(*f));
		f->run_id = sqlite3_column_int64(s, 0);
		f->position = sqlite3_column_int(s, 1);
		if (finding_kind_parse(&f->kind, kind)) {
			error("%s: run %lld has a finding of kind '%s', which this kconfperf "
			      "does not know", store_path(st), (long long)f->run_id,
			      kind ? kind : "");
			goto out;
		}
		f->line = store_column_dup(s, 3);
		f->count = sqlite3_column_int(s, 4);
		f->text = store_column_dup(s, 5);
		n++;
	}
	if (rc != SQLITE_DONE) {
		store_db_error(st, "cannot read findings");
		goto out;
	}
	*out = v;
	*nr = n;
	v = NULL;
	n = 0;
	ret = 0;
out:
	sqlite3_finalize(s);
	store_findings_free(v, n);
	return ret;
}

void store_findings_free(struct store_finding *f, size_t nr)
{
	size_t i;

	for (i = 0; f && i < nr; i++) {
		free(f[i].line);
		free(f[i].text);
	}
	free(f);
}
