/* schedule.c: the order of an experiment's runs: seeded randomized complete blocks, warm-ups first, resumable. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>

#include "run/schedule.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* splitmix64: one step of the generator; *state advances by the golden gamma. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* FNV-1a, 64 bits: only to fold the workload spec into the round's key. */
static uint64_t fnv1a(const char *s)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

/* Uniform in [0, n), n > 0, without modulo bias: reject the short last interval. */
static uint64_t below(uint64_t *state, uint64_t n)
{
	uint64_t threshold = -n % n, r;

	do
		r = splitmix64(state);
	while (r < threshold);
	return r % n;
}

void schedule_round_order(size_t *order, size_t n, uint64_t seed,
			  const char *workload, int round)
{
	uint64_t state = seed, key;
	size_t i;

	/* Each input goes through the mixer, so nearby seeds and rounds decorrelate. */
	key = splitmix64(&state) ^ fnv1a(workload);
	state = key;
	key = splitmix64(&state) ^ (uint64_t)(int64_t)round;
	state = key;
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		size_t j = (size_t)below(&state, i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

static void add_round(struct schedule *s, const struct schedule_options *o,
		      size_t w, int round, size_t *order)
{
	size_t i;

	schedule_round_order(order, o->nr_variants, o->seed, o->workloads[w], round);
	ALLOC_GROW(s->runs, s->nr + o->nr_variants, s->alloc);
	for (i = 0; i < o->nr_variants; i++) {
		struct schedule_run *r = &s->runs[s->nr++];

		r->workload = w;
		r->variant = order[i];
		r->round = round;
		r->warmup = round < 0;
		r->seq = (int)i;
	}
}

void schedule_make(struct schedule *out, const struct schedule_options *o)
{
	size_t *order = xcalloc(o->nr_variants ? o->nr_variants : 1, sizeof(*order));
	size_t w;
	int round;

	memset(out, 0, sizeof(*out));
	for (w = 0; w < o->nr_workloads; w++) {
		for (round = -1; round >= -o->warmup; round--)
			add_round(out, o, w, round, order);
		for (round = 0; round < o->runs; round++)
			if (shard_has_round(&o->shard, round))
				add_round(out, o, w, round, order);
	}
	free(order);
}

void schedule_release(struct schedule *s)
{
	free(s->runs);
	memset(s, 0, sizeof(*s));
}

long schedule_drop_done(struct schedule *s, schedule_done_fn done, void *data)
{
	char *is_done = xcalloc(s->nr ? s->nr : 1, 1);
	size_t i, kept = 0;
	long dropped;

	/* Ask about every run first, so an error leaves s as it was. */
	for (i = 0; i < s->nr; i++) {
		int rc = done(&s->runs[i], data);

		if (rc < 0) {
			free(is_done);
			return -1;
		}
		is_done[i] = rc > 0;
	}
	for (i = 0; i < s->nr; i++)
		if (!is_done[i])
			s->runs[kept++] = s->runs[i];
	dropped = (long)(s->nr - kept);
	s->nr = kept;
	free(is_done);
	return dropped;
}

int64_t schedule_layout_seed(uint64_t seed, const char *variant, const char *workload,
			     int round, int warmup)
{
	uint64_t state = seed ^ 0x6c61796f75740a00ULL;	/* "layout" */

	state = splitmix64(&state) ^ fnv1a(variant);
	state = splitmix64(&state) ^ fnv1a(workload);
	state = splitmix64(&state) ^ (uint64_t)(int64_t)round;
	state = splitmix64(&state) ^ (uint64_t)warmup;
	return (int64_t)(splitmix64(&state) >> 1);
}

uint64_t schedule_new_seed(void)
{
	uint64_t seed;
	struct timespec ts;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t)sizeof(seed))
		return seed;
	clock_gettime(CLOCK_REALTIME, &ts);
	seed = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	seed ^= (uint64_t)getpid() << 32;
	return splitmix64(&seed);
}

int schedule_parse_seed(uint64_t *out, const char *text)
{
	unsigned long long v;
	char *end;

	if (!*text || *text < '0' || *text > '9')
		return error("'%s' is not a seed: use a decimal number from 0 to 2^64-1", text);
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end)
		return error("'%s' is not a seed: use a decimal number from 0 to 2^64-1", text);
	*out = v;
	return 0;
}
