/* shard.c: parse --shard I/N (or the job engine's index) and say which rounds and kernels a shard holds. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/shard.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* A decimal in [lo, hi] that is all of text: 0, or -1 (no message). */
static int parse_int(long *out, const char *text, long lo, long hi)
{
	char *end;
	long v;

	if (!*text || *text == '-' || *text == '+' || *text == ' ')
		return -1;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* The engines whose variable gives the index, in the order they are tried. */
static const struct {
	const char *var;
	int base;
	const char *engine;
} engines[] = {
	{ "SLURM_ARRAY_TASK_ID", 0, "Slurm's sbatch --array" },
	{ "JOB_COMPLETION_INDEX", 0, "a Kubernetes Indexed Job" },
	{ "PARALLEL_SEQ", 1, "GNU parallel" },
};

static int index_from_env(long *out, const char *arg, long count)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engines); i++) {
		const char *v = getenv(engines[i].var);
		long idx;

		if (!v || !*v)
			continue;
		if (parse_int(&idx, v, engines[i].base, count - 1 + engines[i].base))
			return error("--shard %s: %s is '%s' (%s, %d-based): a shard of %ld is "
				     "%d to %ld", arg, engines[i].var, v, engines[i].engine,
				     engines[i].base, count, engines[i].base,
				     count - 1 + engines[i].base);
		*out = idx - engines[i].base;
		return 0;
	}
	return error("--shard %s: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or "
		     "PARALLEL_SEQ is set: give the shard as I/N", arg);
}

int shard_parse(struct shard *out, const char *arg)
{
	const char *slash = strchr(arg, '/');
	char first[32];
	long count, idx = 0;

	if (!slash || (size_t)(slash - arg) >= sizeof(first) ||
	    parse_int(&count, slash + 1, 1, SHARD_MAX))
		return error("--shard '%s' is not I/N (N from 1 to %d) or auto/N", arg, SHARD_MAX);
	memcpy(first, arg, (size_t)(slash - arg));
	first[slash - arg] = '\0';
	if (!strcmp(first, "auto")) {
		if (index_from_env(&idx, arg, count))
			return -1;
	} else if (parse_int(&idx, first, 1, count)) {
		return error("--shard '%s': I counts from 1 to N (%ld)", arg, count);
	} else {
		idx--;
	}
	out->index = (int)idx;
	out->count = (int)count;
	return 0;
}

void shard_format(const struct shard *sh, char *buf, unsigned long size)
{
	snprintf(buf, size, "%d/%d", sh->index + 1, sh->count);
}

int shard_has_round(const struct shard *sh, int round)
{
	return sh->count <= 1 || round % sh->count == sh->index;
}

int shard_has_item(const struct shard *sh, unsigned long k)
{
	return sh->count <= 1 || k % (unsigned long)sh->count == (unsigned long)sh->index;
}
