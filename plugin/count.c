/* count.c: the meter's translation: each block's inline adds, watched accesses and callbacks. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcp-meter.h"

struct counting counting;

static size_t counter_of(uint64_t addr)
{
	int upper = (addr >> 63) != 0;

	if (upper) {
		counting.in_kernel = 1;
		return kernel_counter(addr);
	}
	if (counting.in_kernel)
		return kernel.nr_funcs + BUCKET_USER;
	if (plugin.isa->phys_offset && kernel.nr_funcs &&
	    addr + plugin.isa->phys_offset >= kernel.text_lo &&
	    addr + plugin.isa->phys_offset < kernel.text_hi) {
		size_t c = kernel_counter(addr + plugin.isa->phys_offset);

		if (c < kernel.nr_funcs)
			return c;
	}
	return kernel.nr_funcs + BUCKET_PRE;
}

/* A rep string instruction (rep_started sees its faults; it is never watched). */
static int insn_is_rep(const struct qemu_plugin_insn *insn)
{
	return plugin.isa->rep_string &&
	       plugin.isa->rep_string(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
}

static uint32_t hash_bytes(const unsigned char *p, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h ^ (uint32_t)len;
}

/* The class of an instruction's bytes, made when new. */
static uint32_t class_of(const unsigned char *p, size_t len)
{
	uint32_t h, idx;
	size_t i;

	if (len > sizeof(counting.classes[0].bytes))
		len = sizeof(counting.classes[0].bytes);
	if (2 * (counting.nr_classes + 1) > counting.hash_size) {
		size_t size = counting.hash_size ? 2 * counting.hash_size : 65536;

		free(counting.class_hash);
		counting.class_hash = xcalloc(size, sizeof(*counting.class_hash));
		counting.hash_size = size;
		for (idx = 0; idx < counting.nr_classes; idx++) {
			i = hash_bytes(counting.classes[idx].bytes, counting.classes[idx].len) & (size - 1);
			while (counting.class_hash[i])
				i = (i + 1) & (size - 1);
			counting.class_hash[i] = idx + 1;
		}
	}
	h = hash_bytes(p, len);
	for (i = h & (counting.hash_size - 1); counting.class_hash[i]; i = (i + 1) & (counting.hash_size - 1)) {
		struct iclass *c = &counting.classes[counting.class_hash[i] - 1];

		if (c->len == len && !memcmp(c->bytes, p, len))
			return counting.class_hash[i] - 1;
	}
	if (counting.nr_classes == counting.alloc_classes) {
		counting.alloc_classes = counting.alloc_classes ? 2 * counting.alloc_classes : 4096;
		counting.classes = realloc(counting.classes, counting.alloc_classes * sizeof(*counting.classes));
		if (!counting.classes) {
			fputs("kcp-meter: out of memory\n", stderr);
			abort();
		}
	}
	idx = (uint32_t)counting.nr_classes++;
	memset(&counting.classes[idx], 0, sizeof(counting.classes[idx]));
	memcpy(counting.classes[idx].bytes, p, len);
	counting.classes[idx].len = (unsigned char)len;
	counting.class_hash[i] = idx + 1;
	return idx;
}

/* The slot of vaddr in counting.head_hash: where its index + 1 is, or the empty slot for it. */
static size_t head_slot(uint64_t vaddr)
{
	size_t i;

	for (i = hash_vaddr(vaddr, counting.head_hash_size); counting.head_hash[i];
	     i = (i + 1) & (counting.head_hash_size - 1))
		if (counting.head_vaddr[counting.head_hash[i] - 1] == vaddr)
			break;
	return i;
}

/* vaddr's index in counting.head_vaddr, made when new (a block begins there). */
static uint32_t head_of(uint64_t vaddr)
{
	size_t i, k;

	if (2 * (counting.nr_heads + 1) > counting.head_hash_size) {
		counting.head_hash_size = counting.head_hash_size ? 2 * counting.head_hash_size : 65536;
		free(counting.head_hash);
		counting.head_hash = xcalloc(counting.head_hash_size, sizeof(*counting.head_hash));
		for (k = 0; k < counting.nr_heads; k++)
			counting.head_hash[head_slot(counting.head_vaddr[k])] = (uint32_t)k + 1;
	}
	i = head_slot(vaddr);
	if (counting.head_hash[i])
		return counting.head_hash[i] - 1;
	if (counting.nr_heads == counting.alloc_heads) {
		counting.alloc_heads = counting.alloc_heads ? 2 * counting.alloc_heads : 16384;
		counting.head_vaddr = realloc(counting.head_vaddr, counting.alloc_heads * sizeof(*counting.head_vaddr));
		counting.head_entries = realloc(counting.head_entries, counting.alloc_heads * sizeof(*counting.head_entries));
		if (!counting.head_vaddr || !counting.head_entries) {
			fputs("kcp-meter: out of memory\n", stderr);
			abort();
		}
	}
	counting.head_vaddr[counting.nr_heads] = vaddr;
	counting.head_entries[counting.nr_heads] = 0;
	counting.head_hash[i] = (uint32_t)counting.nr_heads + 1;
	return (uint32_t)counting.nr_heads++;
}

uint64_t entries_at(uint64_t vaddr)
{
	size_t i;

	if (!counting.head_hash_size)
		return 0;
	i = head_slot(vaddr);
	return counting.head_hash[i] ? counting.head_entries[counting.head_hash[i] - 1] : 0;
}

/* The marker at addr whose bytes the instruction has, or -1. */
static int marker_at(const struct qemu_plugin_insn *insn, uint64_t addr)
{
	size_t size;
	int k;

	if (!guest.have_guest || !counting.in_kernel || (addr >> 63))
		return -1;
	for (k = 0; k < METER_NR_MARKS; k++) {
		const struct marker *mk = &guest.markers[k];

		if (!mk->found || mk->addr != addr)
			continue;
		size = qemu_plugin_insn_size(insn);
		if (size > mk->len)
			size = mk->len;
		if (size && !memcmp(qemu_plugin_insn_data(insn), mk->bytes, size))
			return k;
	}
	return -1;
}

/* Code that only an exception runs first: the block after a rep string that faulted. */
static int is_fault_entry(uint64_t addr)
{
	return (addr && (addr == kernel.fault_entry[0] || addr == kernel.fault_entry[1])) ||
	       (addr >= kernel.early_lo && addr < kernel.early_hi);
}

static void rep_started(unsigned int vcpu, void *data)
{
	struct rep_site *rep = data;

	(void)vcpu;
	counting.calls++;
	if (rep->starts) {
		counting.tb_starts++;
		(*rep->starts)++;
		counting.folded++;
	}
	counting.pending_rep = rep;
	counting.pending_tb = counting.tb_starts;
}

/* The page fault entry's first instruction: did the rep string that just started fault? */
static void page_fault_entered(unsigned int vcpu, void *data)
{
	(void)vcpu;
	(void)data;
	counting.calls++;
	if (counting.pending_rep && counting.tb_starts == counting.pending_tb + 1)
		counting.pending_rep->faults++;
	counting.pending_rep = NULL;
}

/*
 * Whether the rep string at addr (counter ctr) needs rep_started, which
 * runs at its every start (each iteration) and is most of the meter's
 * callbacks, to see a fault in it:
 * - before the kernel, no: a fault there would enter the decompressor's
 *   handler, which the meter cannot tell (none happens under qemu);
 * - in the kernel's text once it runs on its own page tables, only where
 *   the exception table lists it (copying from and to user space): any
 *   other kernel instruction that faulted would be a crash (an oops);
 * - else (user space, modules, early boot, no exception table) yes.
 */
static int rep_needs_callback(uint64_t addr, size_t ctr)
{
	if (ctr == kernel.nr_funcs + BUCKET_PRE)
		return 0;
	if (!kernel.have_extable || !counting.late || ctr >= kernel.nr_funcs)
		return 1;
	return in_extable(addr);
}

/* The instruction set's cannot_stop() (struct isa): no add of its own after it. */
static int cannot_stop(const struct qemu_plugin_insn *insn)
{
	return plugin.isa->cannot_stop &&
	       plugin.isa->cannot_stop(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
}

/*
 * Whether instruction insn at addr (counter ctr) cannot stop its block
 * though it touches memory: in the kernel's text once it runs on its own
 * page tables, outside the exception table (rep_needs_callback says why
 * nothing else there faults but fatally), an instruction that only pushes
 * to or pops from the stack cannot fault (the stack is mapped; overflowing
 * it is a double fault) nor reach I/O.  A run of instructions goes on past
 * it, and as a block's first or last it needs no watch.
 */
static int kernel_cannot_stop(const struct qemu_plugin_insn *insn, uint64_t addr, size_t ctr)
{
	return plugin.isa->stack_only && kernel.have_extable && counting.late &&
	       ctr < kernel.nr_funcs && !in_extable(addr) &&
	       plugin.isa->stack_only(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
}

/*
 * Whether an instruction's accesses can say anything: not of one that
 * cannot stop (it always retires), nor of x86's rep string, whose accesses
 * follow rcx (its faults are seen at the fault entry, rep_started): its
 * iterations, a fifth of a boot's block starts, would pay an add per
 * access for nothing.
 */
static int needs_watch(const struct qemu_plugin_insn *insn)
{
	return !cannot_stop(insn) && !insn_is_rep(insn);
}

/* needs_watch() of instruction i of b, which also cannot stop where kernel_cannot_stop() says. */
static int watch_needed(const struct block *b, uint32_t i, const struct qemu_plugin_insn *insn)
{
	return needs_watch(insn) && !kernel_cannot_stop(insn, b->vaddr[i], b->ctr[i]);
}

/* Counts the completed accesses of instruction insn of b in b->acc[which]. */
static void watch_accesses(struct block *b, int which, struct qemu_plugin_insn *insn)
{
	b->cls[which] = class_of(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
	qemu_plugin_register_vcpu_mem_inline(insn, QEMU_PLUGIN_MEM_R, QEMU_PLUGIN_INLINE_ADD_U64,
					     &b->acc[which][0], 1);
	qemu_plugin_register_vcpu_mem_inline(insn, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_INLINE_ADD_U64,
					     &b->acc[which][1], 1);
}

/*
 * Zeroed memory for a block, from chunks that are never freed (blocks are
 * kept as long as qemu runs): a tally reads every block at each marker, and
 * blocks made one after another in memory read several times faster than
 * blocks spread over the heap between qemu's own allocations.
 */
static void *block_alloc(size_t size)
{
	static char *chunk;
	static size_t left;
	const size_t chunk_size = 1 << 20;
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (size > chunk_size)
		return xcalloc(1, size);
	if (size > left) {
		chunk = xcalloc(1, chunk_size);
		left = chunk_size;
	}
	p = chunk;
	chunk += size;
	left -= size;
	return p;
}

void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	uint32_t slots = 0;
	int prev_stops = 1, prev_marker = 0, folded, quiet = 0;
	struct block *b;

	(void)id;
	if (!n)
		return;
	/* one piece of the arena: each tally walks every block, in the order they were made */
	b = block_alloc(sizeof(*b) + n * (sizeof(b->starts[0]) + sizeof(*b->vaddr) + sizeof(*b->ctr) +
					  sizeof(*b->slot)));
	b->n = (uint32_t)n;
	b->vaddr = (uint64_t *)&b->starts[n];
	b->ctr = (uint32_t *)&b->vaddr[n];
	b->slot = &b->ctr[n];
	b->cls[0] = b->cls[1] = b->cls[2] = NO_CLASS;
	b->head = head_of(qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0)));
	/*
	 * A rep string alone (each iteration runs one; a fifth of a boot's
	 * blocks): rep_started counts its starts where it needs the callback
	 * (folded); else it cannot fault (quiet), and tb_starts, which only
	 * tells whether the fault entry ran right after a rep string, needs
	 * no add from it.
	 */
	if (n == 1 && insn_is_rep(qemu_plugin_tb_get_insn(tb, 0))) {
		uint64_t addr = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0));

		folded = rep_needs_callback(addr, counter_of(addr));
		quiet = !folded;
	} else {
		folded = 0;
	}
	if (plugin.isa->max_insn && n >= 2) {
		uint64_t first = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0));
		uint64_t last = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, n - 1));

		/* it starts where a long instruction would reach into the next page */
		b->maybe_phantom = last + plugin.isa->max_insn >= (first | (plugin.isa->page_size - 1)) + 1;
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t addr = qemu_plugin_insn_vaddr(insn);
		int k = marker_at(insn, addr);

		b->ctr[i] = (uint32_t)counter_of(addr);
		b->vaddr[i] = addr;
		/* from here on the early page fault handler cannot run (see rep_needs_callback) */
		if (!i && kernel.late_addr && addr == kernel.late_addr)
			counting.late = 1;
		if (!i && is_fault_entry(addr))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, page_fault_entered,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		if (i == n - 1 && insn_is_rep(insn) && rep_needs_callback(addr, b->ctr[i])) {
			struct rep_site *rep = xcalloc(1, sizeof(*rep));

			rep->ctr = b->ctr[i];
			if (counting.nr_reps == counting.alloc_reps) {
				counting.alloc_reps = counting.alloc_reps ? 2 * counting.alloc_reps : 256;
				counting.reps = realloc(counting.reps, counting.alloc_reps * sizeof(*counting.reps));
				if (!counting.reps) {
					fputs("kcp-meter: out of memory\n", stderr);
					abort();
				}
			}
			counting.reps[counting.nr_reps++] = rep;
			if (folded)
				rep->starts = &b->starts[0];
			qemu_plugin_register_vcpu_insn_exec_cb(insn, rep_started,
							       QEMU_PLUGIN_CB_NO_REGS, rep);
		}
		if (k >= 0) {
			struct site *site = xcalloc(1, sizeof(*site));

			site->b = b;
			site->idx = (uint32_t)i;
			site->kind = k;
			site->next = counting.sites;
			counting.sites = site;
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_hit,
							       QEMU_PLUGIN_CB_NO_REGS, site);
		}
		/*
		 * An add of its own where the one before may stop, at a
		 * marker and after one (tally reads them as the marker's
		 * callback runs), and for a phantom (real_n); else the run's.
		 */
		if (prev_stops || k >= 0 || prev_marker || (i == n - 1 && b->maybe_phantom)) {
			if (!folded)
				qemu_plugin_register_vcpu_insn_exec_inline(insn,
									   QEMU_PLUGIN_INLINE_ADD_U64,
									   &b->starts[slots], 1);
			slots++;
		}
		b->slot[i] = slots - 1;
		prev_stops = !cannot_stop(insn) && !kernel_cannot_stop(insn, addr, b->ctr[i]);
		prev_marker = k >= 0;
	}
	/*
	 * The first instruction's accesses teach its class; the last's say
	 * how often it retired (the one before for a phantom).
	 */
	if (n >= 2 && watch_needed(b, 0, qemu_plugin_tb_get_insn(tb, 0)))
		watch_accesses(b, 0, qemu_plugin_tb_get_insn(tb, 0));
	if (watch_needed(b, n - 1, qemu_plugin_tb_get_insn(tb, n - 1)))
		watch_accesses(b, 1, qemu_plugin_tb_get_insn(tb, n - 1));
	if (b->maybe_phantom && n >= 3 && watch_needed(b, n - 2, qemu_plugin_tb_get_insn(tb, n - 2)))
		watch_accesses(b, 2, qemu_plugin_tb_get_insn(tb, n - 2));
	if (!folded && !quiet)
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &counting.tb_starts, 1);
	b->next = counting.blocks;
	counting.blocks = b;
}
