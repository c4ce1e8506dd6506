/* tally.c: the meter's tally: starts into retired instructions, at each phase marker and at exit. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcp-meter.h"

struct phases phases;

/*
 * qemu 7.2's x86 translator stops a block before an instruction that
 * would reach into a second page, but a plugin still sees the part of it
 * read so far as the block's last instruction, which never runs.
 */
static uint32_t real_n(const struct block *b)
{
	return b->maybe_phantom && !starts_of(b, b->n - 1) && !b->acc[1][0] && !b->acc[1][1] ?
		b->n - 1 : b->n;
}

/* Where the accesses of the block's last instruction are counted. */
static int last_watch(const struct block *b, uint32_t n)
{
	return n == b->n ? 1 : n == 1 ? 0 : 2;
}

/* Gathers what every block's first and last instructions showed, by class. */
static void learn(void)
{
	const struct block *b;
	size_t i;

	for (i = 0; i < counting.nr_classes; i++) {
		struct iclass *c = &counting.classes[i];

		c->done = c->reads = c->writes = 0;
		c->starts = c->lreads = c->lwrites = c->reruns = 0;
	}
	for (b = counting.blocks; b; b = b->next) {
		uint32_t n = real_n(b);
		int w = last_watch(b, n);
		struct iclass *c;

		if (n >= 2 && b->cls[0] != NO_CLASS) {
			c = &counting.classes[b->cls[0]];
			c->done += starts_of(b, 1);
			c->reads += b->acc[0][0];
			c->writes += b->acc[0][1];
		}
		if (b->cls[w] == NO_CLASS)
			continue;
		c = &counting.classes[b->cls[w]];
		if (starts_of(b, n - 1)) {
			c->starts += starts_of(b, n - 1);
			c->lreads += b->acc[w][0];
			c->lwrites += b->acc[w][1];
		} else if (b->acc[w][0] || b->acc[w][1]) {
			c->reruns++;
		}
	}
}

/* Accesses of one execution, *rd reads and *wr writes: 0 when none is known, -1 when they vary. */
static int class_accesses(const struct iclass *c, uint64_t *rd, uint64_t *wr)
{
	*rd = *wr = 0;
	if (c->uneven)
		return -1;
	if (c->done) {
		/* known executions: exact, but for the accesses of the ones that faulted */
		*rd = c->reads / c->done;
		*wr = c->writes / c->done;
		return !*rd && !*wr && (c->reads || c->writes) ? -1 : 0;
	}
	/*
	 * Only ever last: qemu 7.2 leaves a block's last instruction's memory
	 * callbacks armed after it when it called a helper, so accesses made
	 * after it (an interrupt's delivery) may count for it too.  A few
	 * accesses in many starts are those: an instruction with accesses has
	 * about one or more each time it starts.
	 */
	if (2 * c->lwrites >= c->starts && c->lwrites)
		*wr = c->starts ? (c->lwrites + c->starts / 2) / c->starts : 1;
	else if (2 * c->lreads >= c->starts && c->lreads)
		*rd = c->starts ? (c->lreads + c->starts / 2) / c->starts : 1;
	else if (!c->starts && c->reruns)
		*wr = 1;
	if (*wr == 0 && *rd == 0 && (c->lreads || c->lwrites) && 2 * (c->lreads + c->lwrites) >= c->starts)
		return -1;
	return 0;
}

/* Per instruction address: starts that did not retire, and qemu's uninstrumented reruns. */
struct abort_slot {
	uint64_t vaddr, aborted, reruns;
	uint64_t aborted_first;		/* of those aborted starts, ones that began their block */
	uint32_t ctr;
	int used;
};
static struct abort_slot *aborts;
static size_t aborts_size, aborts_used;

static struct abort_slot *abort_slot(uint64_t vaddr, uint32_t ctr)
{
	size_t i;

	if (2 * (aborts_used + 1) > aborts_size) {
		struct abort_slot *old = aborts;
		size_t old_size = aborts_size, k;

		aborts_size = aborts_size ? 2 * aborts_size : 4096;
		aborts = xcalloc(aborts_size, sizeof(*aborts));
		aborts_used = 0;
		for (k = 0; k < old_size; k++)
			if (old[k].used)
				*abort_slot(old[k].vaddr, old[k].ctr) = old[k];
		free(old);
	}
	for (i = hash_vaddr(vaddr, aborts_size); aborts[i].used; i = (i + 1) & (aborts_size - 1))
		if (aborts[i].vaddr == vaddr)
			return &aborts[i];
	aborts_used++;
	aborts[i].used = 1;
	aborts[i].vaddr = vaddr;
	aborts[i].ctr = ctr;
	return &aborts[i];
}

/*
 * An instruction that makes as many accesses each time it runs shows it
 * in every block that runs it often; one whose accesses follow the mode
 * (a segment load in real mode reads no descriptor) or the path (iretq)
 * does not, and its accesses cannot say how often it retired.
 */
static void check_even(void)
{
	const struct block *b;
	size_t i;

	for (i = 0; i < counting.nr_classes; i++)
		counting.classes[i].uneven = 0;
	for (b = counting.blocks; b; b = b->next) {
		uint32_t n = real_n(b);
		int w = last_watch(b, n);
		uint64_t started = starts_of(b, n - 1), rd, wr, k, acc, retried;
		struct iclass *c;

		if (b->cls[w] == NO_CLASS || started < 16)
			continue;
		c = &counting.classes[b->cls[w]];
		if (c->uneven || class_accesses(c, &rd, &wr))
			continue;
		k = wr ? wr : rd;
		acc = wr ? b->acc[w][1] : b->acc[w][0];
		if (!k)
			continue;
		/*
		 * Fewer accesses than starts: faults, each run again from a
		 * block of its own, or another mode; more: an interrupt's
		 * accesses may add a few, another path many.
		 */
		retried = entries_at(b->vaddr[n - 1]);
		if (acc + k * retried + started / 4 < k * started || acc > k * started + started / 4)
			c->uneven = 1;
	}
}

/*
 * How often a block's last instruction (instruction n - 1) completed
 * its accesses, at most its starts; its starts when they cannot say.
 */
static uint64_t last_done(const struct block *b, uint32_t n)
{
	int w = last_watch(b, n);
	uint64_t started = starts_of(b, n - 1), rd = 0, wr = 0, done;

	if (b->cls[w] == NO_CLASS || class_accesses(&counting.classes[b->cls[w]], &rd, &wr))
		return started;
	if (wr)
		done = b->acc[w][1] / wr;
	else if (rd)
		done = b->acc[w][0] / rd;
	else
		return started;
	return done > started ? started : done;
}

/*
 * A block of one instruction that never started yet accessed memory:
 * qemu ran it without instrumentation to redo an I/O access the
 * instruction started in another block.  How often, or 0.
 */
static uint64_t reruns(const struct block *b)
{
	uint64_t rd = 0, wr = 0;

	if (b->n != 1 || starts_of(b, 0) || (!b->acc[1][0] && !b->acc[1][1]))
		return 0;
	if (b->cls[1] == NO_CLASS || class_accesses(&counting.classes[b->cls[1]], &rd, &wr) ||
	    (!rd && !wr))
		rd = 1;
	return wr ? b->acc[1][1] / wr : b->acc[1][0] / rd;
}

/*
 * Fills out[] (nr_counters()) with the instructions retired so far; at
 * a marker, up to the marker's instruction.  An instruction retired as
 * often as it started, less the starts that faulted: qemu counts those
 * when they run again, as the meter does.  A start that did not retire
 * shows as a next instruction in its block that did not start, or for a
 * block's last as an access that did not complete; it is a fault unless
 * qemu ran the instruction again uninstrumented for an I/O access.
 */
void tally(uint64_t *out, const struct site *at)
{
	const struct block *b;
	uint32_t i;
	size_t k;

	if (aborts)
		memset(aborts, 0, aborts_size * sizeof(*aborts));
	aborts_used = 0;
	learn();
	/* how often each address began a block: a faulted instruction runs again so */
	if (counting.nr_heads)
		memset(counting.head_entries, 0, counting.nr_heads * sizeof(*counting.head_entries));
	for (b = counting.blocks; b; b = b->next)
		counting.head_entries[b->head] += starts_of(b, 0);
	check_even();
	memset(out, 0, nr_counters() * sizeof(*out));
	for (b = counting.blocks; b; b = b->next) {
		uint32_t n = real_n(b);
		uint64_t r = reruns(b), s, next;

		if (r) {
			abort_slot(b->vaddr[0], b->ctr[0])->reruns += r;
			continue;
		}
		for (i = 0; i < n; i++) {
			/* at a marker: its instruction runs now, the one before it retired */
			s = starts_of(b, i);
			if (at && at->b == b && i == at->idx)
				s = at->hits - 1;
			out[b->ctr[i]] += s;
			if (i + 1 < n) {
				next = starts_of(b, i + 1);
				if (at && at->b == b && i + 1 == at->idx)
					next = at->hits;
			} else {
				next = last_done(b, n);
			}
			if (next < s) {
				struct abort_slot *a = abort_slot(b->vaddr[i], b->ctr[i]);

				a->aborted += s - next;
				if (!i)
					a->aborted_first += s - next;
			}
		}
	}
	/*
	 * A start that did not retire and was not redone for I/O is a fault
	 * when the instruction ran again: a block began with it (less the
	 * aborted starts that were such beginnings themselves).
	 */
	for (k = 0; k < aborts_size; k++) {
		struct abort_slot *a = &aborts[k];
		uint64_t faults = a->aborted > a->reruns ? a->aborted - a->reruns : 0;
		uint64_t again = a->used ? entries_at(a->vaddr) - a->aborted_first : 0;

		if (a->used && faults)
			out[a->ctr] -= faults < again ? faults : again;
	}
	for (k = 0; k < counting.nr_reps; k++)
		out[counting.reps[k]->ctr] -= counting.reps[k]->faults;
}

uint64_t started(void)
{
	const struct block *b;
	uint64_t n = 0;
	uint32_t i;

	for (b = counting.blocks; b; b = b->next)
		for (i = 0; i < b->n; i++)
			n += starts_of(b, i);
	return n;
}

void ops(uint64_t *adds, uint64_t *watches)
{
	const struct block *b;
	uint32_t i;

	*adds = counting.tb_starts - 2 * counting.folded;	/* + each block's slots, below */
	*watches = 0;
	for (b = counting.blocks; b; b = b->next) {
		for (i = 0; i < b->n; i++)
			if (!i || b->slot[i] != b->slot[i - 1])
				*adds += starts_of(b, i);
		for (i = 0; i < 3; i++)
			*watches += b->acc[i][0] + b->acc[i][1];
	}
}

void take(struct snapshot *s, const uint64_t *counts)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < kernel.nr_funcs; i++)
		s->kernel += counts[i];
	for (i = 0; i < kernel.nr_idle; i++)
		s->idle += counts[kernel.idle[i]];
	s->pre = counts[kernel.nr_funcs + BUCKET_PRE];
	s->user = counts[kernel.nr_funcs + BUCKET_USER];
	s->kother = counts[kernel.nr_funcs + BUCKET_KOTHER];
	s->total = s->kernel + s->pre + s->user + s->kother;
}

void marker_hit(unsigned int vcpu, void *data)
{
	struct site *site = data;
	int kind = site->kind;
	struct snapshot *s;
	size_t i;

	(void)vcpu;
	counting.calls++;
	site->hits++;
	if (kind == METER_MARK_INIT) {
		if (phases.init_seen++)
			return;	/* kcp-guest exec'd again (fork exec=1): not init */
		tally(phases.now, site);
		memcpy(phases.boot, phases.now, nr_counters() * sizeof(*phases.now));
	} else if (kind == METER_MARK_BEGIN) {
		tally(phases.now, site);
		memcpy(phases.begun, phases.now, nr_counters() * sizeof(*phases.now));
		phases.in_iter = 1;
	} else if (kind == METER_MARK_POWEROFF) {
		if (phases.ended_seen++)
			return;
		tally(phases.now, site);
		memcpy(phases.ended, phases.now, nr_counters() * sizeof(*phases.now));
	} else if (kind == METER_MARK_END) {
		if (!phases.in_iter)
			return;	/* an end without its begin: nothing to add */
		tally(phases.now, site);
		for (i = 0; i < nr_counters(); i++)
			if (phases.now[i] > phases.begun[i])
				phases.work[i] += phases.now[i] - phases.begun[i];
		phases.in_iter = 0;
	}
	if (phases.nr_snaps == phases.alloc_snaps) {
		phases.alloc_snaps = phases.alloc_snaps ? 2 * phases.alloc_snaps : 64;
		phases.snaps = realloc(phases.snaps, phases.alloc_snaps * sizeof(*phases.snaps));
		if (!phases.snaps) {
			fputs("kcp-meter: out of memory\n", stderr);
			abort();
		}
	}
	s = &phases.snaps[phases.nr_snaps++];
	take(s, phases.now);
	s->kind = kind;
	s->iter = kind == METER_MARK_BEGIN || kind == METER_MARK_END ? phases.iter : -1;
	if (kind == METER_MARK_END)
		phases.iter++;
}
