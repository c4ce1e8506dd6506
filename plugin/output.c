/* output.c: the meter's file (store/meter-file.h), written when qemu exits. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/store/idle-functions.h"

#include "kcp-meter.h"

static const char *const bucket_names[NR_BUCKETS] = {
	KCP_BUCKET_BEFORE_KERNEL, KCP_BUCKET_USER, KCP_BUCKET_KERNEL_OTHER,
};
static const char *const marker_names[METER_NR_MARKS] = { METER_MARK_NAMES };

static void put_snap(FILE *f, const char *what, const struct snapshot *s)
{
	fprintf(f, "%s %llu %llu %llu %llu %llu %llu\n", what, (unsigned long long)s->total,
		(unsigned long long)s->pre, (unsigned long long)s->kernel,
		(unsigned long long)s->kother, (unsigned long long)s->user,
		(unsigned long long)s->idle);
}

static void put_fns(FILE *f, const char *phase, const uint64_t *counts)
{
	size_t i;

	for (i = 0; i < nr_counters(); i++)
		if (counts[i])
			fprintf(f, METER_REC_FN " %s %llu %s\n", phase, (unsigned long long)counts[i],
				i < kernel.nr_funcs ? kernel.func_names[i] :
				bucket_names[i - kernel.nr_funcs]);
}

void at_exit(qemu_plugin_id_t id, void *data)
{
	size_t len = strlen(plugin.out) + 5, i;
	char *tmp = xcalloc(len, 1);
	struct snapshot now;
	FILE *f;

	(void)id;
	(void)data;
	snprintf(tmp, len, "%s.tmp", plugin.out);
	f = fopen(tmp, "w");
	if (!f) {
		say("cannot write '%s': %s", tmp, strerror(errno));
		free(tmp);
		return;
	}
	fprintf(f, METER_FILE_HEADER "\n" METER_REC_TARGET " %s\n", plugin.target);
	if (kernel.nr_funcs)
		fprintf(f, METER_REC_MAP " %zu symbols\n", kernel.nr_funcs);
	else
		fprintf(f, METER_REC_MAP " " METER_NONE "\n");
	if (kernel.have_extable)
		fprintf(f, METER_REC_EXTABLE " %zu\n", kernel.nr_extable);
	else
		fprintf(f, METER_REC_EXTABLE " " METER_NONE "\n");
	if (guest.have_guest)
		fprintf(f, METER_REC_GUEST " markers %d\n", METER_NR_MARKS);
	else
		fprintf(f, METER_REC_GUEST " " METER_NONE "\n");
	for (i = 0; i < phases.nr_snaps; i++) {
		char what[64];

		snprintf(what, sizeof(what), METER_REC_MARK " %s %d", marker_names[phases.snaps[i].kind],
			 phases.snaps[i].iter);
		put_snap(f, what, &phases.snaps[i]);
	}
	tally(phases.now, NULL);
	take(&now, phases.now);
	put_snap(f, METER_REC_TOTAL, &now);
	fprintf(f, METER_REC_STARTED " %llu\n", (unsigned long long)started());
	{
		uint64_t adds, watches;

		ops(&adds, &watches);
		fprintf(f, METER_REC_OPS " %llu %llu %llu\n", (unsigned long long)adds,
			(unsigned long long)watches, (unsigned long long)counting.calls);
	}
	if (phases.init_seen)
		put_fns(f, METER_PHASE_BOOT, phases.boot);
	put_fns(f, METER_PHASE_WORK, phases.work);
	/*
	 * The whole run ends where kcp-guest asks to power off: after the
	 * kernel's power-off request the vCPU runs on (a delay loop) until
	 * qemu's main loop stops it, which follows host timing.
	 */
	put_fns(f, METER_PHASE_ALL, phases.ended_seen ? phases.ended : phases.now);
	fprintf(f, METER_REC_END "\n");
	if (fflush(f) || ferror(f) | fclose(f) || rename(tmp, plugin.out))
		say("cannot write '%s': %s", plugin.out, strerror(errno));
	free(tmp);
}
