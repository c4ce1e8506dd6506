/* screen-order.c: the screen order: the caller's preferred order, changed only as far as the "after" constraints require. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "screen/screen-internal.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* A binary min-heap of ranks (preferred positions), for the stable topological sort. */
struct rank_heap {
	size_t *v;
	size_t nr;
};

static void heap_push(struct rank_heap *h, size_t x)
{
	size_t i = h->nr++;

	h->v[i] = x;
	while (i && h->v[(i - 1) / 2] > h->v[i]) {
		size_t p = (i - 1) / 2, t = h->v[p];

		h->v[p] = h->v[i];
		h->v[i] = t;
		i = p;
	}
}

static size_t heap_pop(struct rank_heap *h)
{
	size_t top = h->v[0], i = 0;

	h->v[0] = h->v[--h->nr];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < h->nr && h->v[l] < h->v[m])
			m = l;
		if (r < h->nr && h->v[r] < h->v[m])
			m = r;
		if (m == i)
			break;
		t = h->v[m];
		h->v[m] = h->v[i];
		h->v[i] = t;
		i = m;
	}
	return top;
}

/*
 * After Kahn's algorithm stopped early, the options left (indegree > 0)
 * are on a cycle or after one: walking back from one of them through
 * options left, n steps always end on the cycle.
 */
static size_t on_cycle(const struct screen *s, const size_t *indegree)
{
	size_t o = 0, step, e;

	while (!indegree[o])
		o++;
	for (step = 0; step < s->nr; step++)
		for (e = 0; e < s->nr_edges; e++)
			if (s->edges[e].later == o && indegree[s->edges[e].earlier]) {
				o = s->edges[e].earlier;
				break;
			}
	return o;
}

/*
 * Kahn's algorithm over all options, excluded ones included so that a
 * chain A after B after C still orders A after C when B is left out; the
 * ready option with the smallest preferred rank goes first.
 */
int screen_sort_options(struct screen *s)
{
	size_t n = s->nr, i, placed = 0;
	size_t *rank = xmalloc((n ? n : 1) * sizeof(*rank));
	size_t *by_rank = xmalloc((n ? n : 1) * sizeof(*by_rank));
	size_t *indegree = xcalloc(n ? n : 1, sizeof(*indegree));
	size_t *start = xcalloc(n + 1, sizeof(*start));
	size_t *fill = xmalloc((n ? n : 1) * sizeof(*fill));
	size_t *succ = xmalloc((s->nr_edges ? s->nr_edges : 1) * sizeof(*succ));
	struct rank_heap heap = { xmalloc((n ? n : 1) * sizeof(size_t)), 0 };
	int ret = 0;

	for (i = 0; i < n; i++) {
		size_t opt = s->prefer ? s->prefer[i] : i;

		rank[opt] = i;
		by_rank[i] = opt;
	}
	/* Successor lists (earlier -> later), as a compressed adjacency array. */
	for (i = 0; i < s->nr_edges; i++) {
		start[s->edges[i].earlier + 1]++;
		indegree[s->edges[i].later]++;
	}
	for (i = 0; i < n; i++)
		start[i + 1] += start[i];
	memcpy(fill, start, n * sizeof(*fill));
	for (i = 0; i < s->nr_edges; i++)
		succ[fill[s->edges[i].earlier]++] = s->edges[i].later;

	s->order = xmalloc((n ? n : 1) * sizeof(*s->order));
	s->position = xmalloc((n ? n : 1) * sizeof(*s->position));
	for (i = 0; i < n; i++) {
		s->position[i] = SCREEN_NONE;
		if (!indegree[i])
			heap_push(&heap, rank[i]);
	}
	while (heap.nr) {
		size_t opt = by_rank[heap_pop(&heap)], e;

		placed++;
		if (!s->excluded[opt]) {
			s->position[opt] = s->nr_order;
			s->order[s->nr_order++] = opt;
		}
		for (e = start[opt]; e < start[opt + 1]; e++)
			if (!--indegree[succ[e]])
				heap_push(&heap, rank[succ[e]]);
	}
	if (placed < n)
		ret = error("screen: the order constraints form a cycle through '%s'",
			    s->names[on_cycle(s, indegree)]);
	free(rank);
	free(by_rank);
	free(indegree);
	free(start);
	free(fill);
	free(succ);
	free(heap.v);
	return ret;
}

static size_t shared_symbols(const struct strvec *a, const struct strvec *b)
{
	size_t i = 0, j = 0, n = 0;

	while (i < a->nr && j < b->nr) {
		int c = strcmp(a->v[i], b->v[j]);

		if (!c)
			n++;
		i += c <= 0;
		j += c >= 0;
	}
	return n;
}

void screen_related_order(const struct strvec *sym, size_t n, size_t *order)
{
	unsigned char *placed = xcalloc(n ? n : 1, 1);
	size_t i, k;

	for (k = 0; k < n; k++) {
		size_t best = SIZE_MAX, best_shared = 0;

		for (i = 0; i < n; i++) {
			size_t c;

			if (placed[i])
				continue;
			c = k ? shared_symbols(&sym[order[k - 1]], &sym[i]) : 0;
			if (best == SIZE_MAX || c > best_shared) {
				best = i;
				best_shared = c;
			}
		}
		order[k] = best;
		placed[best] = 1;
	}
	/* Each swap removes one inversion of the sizes, so this ends. */
	for (k = 1; k < n; k++) {
		size_t a = order[k - 1], b = order[k];

		if (sym[b].nr < sym[a].nr && shared_symbols(&sym[a], &sym[b])) {
			order[k - 1] = b;
			order[k] = a;
			if (k > 1)
				k -= 2;	/* b may go further forward */
		}
	}
	free(placed);
}
