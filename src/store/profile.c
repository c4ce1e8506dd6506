/* profile.c: a per-function instruction profile: names, counts, and their compact stored form. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "store/idle-functions.h"
#include "store/profile.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
}

void profile_release(struct profile *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr; i++)
		free(p->v[i].name);
	free(p->v);
	profile_init(p);
}

void profile_add(struct profile *p, const char *name, double count)
{
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr].name = xstrdup(name);
	p->v[p->nr].count = count;
	p->nr++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct profile_entry *)a)->name,
		      ((const struct profile_entry *)b)->name);
}

void profile_merge(struct profile *p)
{
	size_t i, o = 0;

	if (!p->nr)
		return;
	qsort(p->v, p->nr, sizeof(*p->v), by_name);
	for (i = 1; i < p->nr; i++) {
		if (!strcmp(p->v[i].name, p->v[o].name)) {
			p->v[o].count += p->v[i].count;
			free(p->v[i].name);
		} else {
			p->v[++o] = p->v[i];
		}
	}
	p->nr = o + 1;
}

size_t profile_base_len(const char *name)
{
	const char *dot = strchr(name, '.');

	/* a name that is all suffix (".cold") keeps itself */
	return dot && dot != name ? (size_t)(dot - name) : strlen(name);
}

void profile_normalize(struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		p->v[i].name[profile_base_len(p->v[i].name)] = '\0';
	profile_merge(p);
}

void profile_scale(struct profile *p, double factor)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		p->v[i].count *= factor;
}

void profile_add_all(struct profile *p, const struct profile *from)
{
	size_t i;

	for (i = 0; i < from->nr; i++)
		profile_add(p, from->v[i].name, from->v[i].count);
	profile_merge(p);
}

double profile_total(const struct profile *p)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < p->nr; i++)
		sum += p->v[i].count;
	return sum;
}

int profile_is_idle(const char *name)
{
	static const char *const idle[] = { KCP_IDLE_FUNCTIONS };
	size_t len = profile_base_len(name), i;

	for (i = 0; i < ARRAY_SIZE(idle); i++)
		if (strlen(idle[i]) == len && !strncmp(idle[i], name, len))
			return 1;
	return 0;
}

double profile_busy(const struct profile *p)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (!profile_is_idle(p->v[i].name))
			sum += p->v[i].count;
	return sum;
}

static int by_count(const void *a, const void *b)
{
	const struct profile_entry *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

void profile_sort_by_count(struct profile *p)
{
	qsort(p->v, p->nr, sizeof(*p->v), by_count);
}

const struct profile_entry *profile_find(const struct profile *p, const char *name)
{
	struct profile_entry key = { .name = (char *)name };

	return p->nr ? bsearch(&key, p->v, p->nr, sizeof(*p->v), by_name) : NULL;
}

static void put_varint(struct strbuf *sb, uint64_t v)
{
	while (v >= 0x80) {
		strbuf_addch(sb, (int)(0x80 | (v & 0x7f)));
		v >>= 7;
	}
	strbuf_addch(sb, (int)v);
}

/* One varint from *p (below end): 0, or -1 when it runs off the end or past 64 bits. */
static int get_varint(const unsigned char **p, const unsigned char *end, uint64_t *out)
{
	uint64_t v = 0;
	int shift = 0;

	while (*p < end && shift < 64) {
		unsigned char c = *(*p)++;

		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*out = v;
			return 0;
		}
		shift += 7;
	}
	return -1;
}

struct pair {
	int64_t id;
	uint64_t count;
};

static int by_id(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int profile_encode(struct strbuf *out, const struct profile *p, const int64_t *ids)
{
	struct pair *pairs = xcalloc(p->nr ? p->nr : 1, sizeof(*pairs));
	struct strbuf raw = STRBUF_INIT;
	uLongf zlen;
	int64_t last = 0;
	size_t i;
	int ret = -1;

	for (i = 0; i < p->nr; i++) {
		if (ids[i] < 0 || !(p->v[i].count >= 0) || p->v[i].count > 1.8e19) {
			error("profile: function '%s' has no id or a count out of range", p->v[i].name);
			goto out;
		}
		pairs[i].id = ids[i];
		pairs[i].count = (uint64_t)llround(p->v[i].count);
	}
	qsort(pairs, p->nr, sizeof(*pairs), by_id);
	put_varint(&raw, p->nr);
	for (i = 0; i < p->nr; i++) {
		if (i && pairs[i].id == last) {
			error("profile: function id %lld twice (merge the profile first)",
			      (long long)last);
			goto out;
		}
		put_varint(&raw, (uint64_t)(pairs[i].id - last));
		put_varint(&raw, pairs[i].count);
		last = pairs[i].id;
	}
	zlen = compressBound(raw.len);
	strbuf_grow(out, zlen);
	if (compress2((Bytef *)out->buf + out->len, &zlen, (const Bytef *)raw.buf, raw.len,
		      Z_BEST_COMPRESSION) != Z_OK) {
		error("profile: zlib cannot compress %zu bytes", raw.len);
		goto out;
	}
	strbuf_setlen(out, out->len + zlen);
	ret = 0;
out:
	free(pairs);
	strbuf_release(&raw);
	return ret;
}

int profile_decode(const void *data, size_t len, int64_t **ids, uint64_t **counts, size_t *nr)
{
	z_stream z;
	struct strbuf raw = STRBUF_INIT;
	const unsigned char *p, *end;
	uint64_t n, delta, id = 0;
	size_t i;
	int zrc, ret = -1;

	*ids = NULL;
	*counts = NULL;
	*nr = 0;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return error("profile: zlib cannot start");
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	do {
		strbuf_grow(&raw, 65536);
		z.next_out = (Bytef *)raw.buf + raw.len;
		z.avail_out = (uInt)(raw.alloc - raw.len - 1);
		zrc = inflate(&z, Z_NO_FLUSH);
		strbuf_setlen(&raw, raw.alloc - 1 - z.avail_out);
		if (raw.len > (size_t)PROFILE_MAX_ENTRIES * 20) {
			error("profile: a stored profile inflates beyond its limit");
			goto out;
		}
	} while (zrc == Z_OK);
	if (zrc != Z_STREAM_END || z.avail_in) {
		error("profile: a stored profile is not a whole zlib stream (%s)",
		      zrc == Z_STREAM_END ? "bytes after its end" : "truncated or damaged");
		goto out;
	}
	p = (const unsigned char *)raw.buf;
	end = p + raw.len;
	if (get_varint(&p, end, &n) || n > PROFILE_MAX_ENTRIES) {
		error("profile: a stored profile has no count of entries, or too many");
		goto out;
	}
	*ids = xcalloc(n ? n : 1, sizeof(**ids));
	*counts = xcalloc(n ? n : 1, sizeof(**counts));
	for (i = 0; i < n; i++) {
		if (get_varint(&p, end, &delta) || get_varint(&p, end, &(*counts)[i]) ||
		    (i && !delta) || delta > INT64_MAX - id) {
			error("profile: a stored profile ends or repeats at entry %zu of %llu", i,
			      (unsigned long long)n);
			goto out;
		}
		id += delta;
		(*ids)[i] = (int64_t)id;
	}
	if (p != end) {
		error("profile: a stored profile has %zu bytes after its %llu entries",
		      (size_t)(end - p), (unsigned long long)n);
		goto out;
	}
	*nr = (size_t)n;
	ret = 0;
out:
	inflateEnd(&z);
	strbuf_release(&raw);
	if (ret) {
		free(*ids);
		free(*counts);
		*ids = NULL;
		*counts = NULL;
	}
	return ret;
}
