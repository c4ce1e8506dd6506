/* callstack-probe.c: a throwaway qemu TCG plugin that keeps an x86 shadow stack, to price call stacks. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Not part of kconfperf: bench/callstack builds it and loads it beside the
 * meter (a second -plugin) to measure what call stacks would cost the
 * meter (docs/meter.md, "Call stacks").  It does the work a meter with
 * call stacks would do:
 *
 *	-plugin file=callstack-probe.so,out=FILE[,map=System.map]
 *
 * - an inline add before every guest instruction keeps a running count,
 *   as the meter's does;
 * - at translation, x86 call instructions are found from their bytes
 *   (qemu_plugin_insn_data): e8 (call rel), ff /2 (call near indirect) and
 *   ff /3 (call far indirect), after any legacy and REX prefixes; each gets
 *   a callback that pushes a frame: its return address, its target (the
 *   target of a direct call; for an indirect one, which a v1 plugin cannot
 *   read, the call site stands for it), the running count and the frame's
 *   node in the tree of call paths;
 * - returns: a v1 plugin reads no registers nor the guest's stack, so the
 *   ret itself cannot say where it returns to.  The address after a call
 *   is where its return lands, and a return always lands at the start of
 *   a translated block, so each block that starts at such an address gets
 *   a callback: it pops to the frame whose return address it is, adding
 *   the callee's inclusive count to the callee's total and its exclusive
 *   count to its call path (the folded stacks).  The ret instructions (c3,
 *   c2, and the far ca, cb) are counted with an inline add only.
 *
 * Mismatches are counted, not hidden: a return that lands below the top
 * frame (a longjmp-like unwind, a context switch to a task whose frames
 * are deeper, an iret out of an interrupt whose handler's frames are gone)
 * pops every frame above the match ("unwound"); a landing with no frame
 * for it (a jump to the address after a call, a task's first return into
 * frames the probe never saw, a block at a return address translated
 * before its call was) changes nothing ("unmatched"); a stack deeper than
 * MAX_DEPTH is dropped ("resets").  With map=, a call of the kernel's
 * __switch_to_asm (a context switch) starts the stack anew ("switches").  An interrupt's handler is counted
 * inside whatever function it interrupted, as a sampling profiler would.
 * One stack for the machine: the meter runs under icount, one vCPU thread.
 *
 * What it writes to FILE at qemu's exit:
 *
 *	callstack-probe 1
 *	insns N calls N rets N landings N matched N unwound N unmatched N resets N
 *		switches N maxdepth N lost N   (lost: a full table dropped an entry)
 *	fn INCLUSIVE CALLS TARGET   (each callee, largest first; TARGET a
 *		name from map= or an address; an indirect call's "@site")
 *	open DEPTH TARGET RETURN   (the frames open at exit, innermost first)
 *	end
 *
 * and the folded stacks (flame graph tools: "a;b;c COUNT") to FILE.folded.
 *
 * check=off leaves out the landings' callbacks (returns unchecked);
 * stack=off leaves out the stack, keeping only the running count's inline
 * adds, which a meter with call stacks would not add twice: the cost of
 * the probe less that of stack=off is the shadow stack's own.
 *
 * The plugin API (version 1, qemu 7.x and 8.x) as qemu's
 * docs/devel/tcg-plugins.rst documents it: plugin/qemu-plugin-api.h,
 * shared with the meter, since distributions ship no qemu-plugin.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/qemu-plugin-api.h"

#define EXPORT __attribute__((visibility("default")))
#define PROBE_API_VERSION 1

EXPORT int qemu_plugin_version = PROBE_API_VERSION;
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv);

#define MAX_DEPTH 1024
#define FN_BITS 16		/* callees (targets and indirect sites) */
#define SITE_BITS 17		/* call sites and return addresses */
#define PATH_BITS 20		/* call paths */

/* A callee: a direct call's target, or an indirect call's site. */
struct fn {
	uint64_t key;		/* the target's address, or the indirect call's */
	bool indirect;
	uint64_t inclusive, calls;
	bool used;
};

/* A call site, interned by its address, so a retranslation reuses it. */
struct site {
	uint64_t addr, ret;
	uint32_t fn;
	bool used;
};

/* A call path: its callee below its parent's path (0 is the root). */
struct path {
	uint32_t parent, fn;
	uint64_t self;
	bool used;
};

struct frame {
	uint64_t ret, start, children;
	uint32_t fn, path;
};

struct sym {
	uint64_t addr;
	char *name;
};

static struct {
	char *out;
	uint64_t insns, rets;	/* the running count (inline adds), the rets */
	uint64_t calls, empty, landings, matched, unwound, unmatched, resets, switches, maxdepth, lost;
	uint64_t last_ret;	/* the return address the last ret popped, until a landing */
	bool check;		/* landings checked (check=on, the default) */
	bool keep;		/* the shadow stack kept (stack=on, the default) */
	uint64_t switch_to;	/* __switch_to_asm's address (map=), or 0 */
	struct fn fns[1u << FN_BITS];
	struct site sites[1u << SITE_BITS];
	bool return_site[1u << SITE_BITS];	/* open table of return addresses */
	uint64_t return_addr[1u << SITE_BITS];
	struct path paths[1u << PATH_BITS];
	struct frame stack[MAX_DEPTH];
	size_t depth;
	struct sym *syms;
	size_t nr_syms;
} p;

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static uint32_t fn_intern(uint64_t key, bool indirect)
{
	uint32_t mask = (1u << FN_BITS) - 1, i = hash64(key ^ indirect) & mask, n;

	for (n = 0; n <= mask; n++, i = (i + 1) & mask) {
		if (!p.fns[i].used) {
			p.fns[i].used = true;
			p.fns[i].key = key;
			p.fns[i].indirect = indirect;
			return i;
		}
		if (p.fns[i].key == key && p.fns[i].indirect == indirect)
			return i;
	}
	p.lost++;
	return 0;
}

static struct site *site_intern(uint64_t addr, uint64_t ret, uint64_t fnkey, bool indirect)
{
	uint32_t mask = (1u << SITE_BITS) - 1, i = hash64(addr) & mask, n;

	for (n = 0; n <= mask; n++, i = (i + 1) & mask) {
		if (!p.sites[i].used) {
			p.sites[i] = (struct site){ addr, ret, fn_intern(fnkey, indirect), true };
			return &p.sites[i];
		}
		if (p.sites[i].addr == addr && p.sites[i].ret == ret)
			return &p.sites[i];
	}
	p.lost++;
	return NULL;
}

static void return_site_add(uint64_t addr)
{
	uint32_t mask = (1u << SITE_BITS) - 1, i = hash64(addr) & mask, n;

	for (n = 0; n <= mask; n++, i = (i + 1) & mask) {
		if (!p.return_site[i]) {
			p.return_site[i] = true;
			p.return_addr[i] = addr;
			return;
		}
		if (p.return_addr[i] == addr)
			return;
	}
	p.lost++;
}

static bool is_return_site(uint64_t addr)
{
	uint32_t mask = (1u << SITE_BITS) - 1, i = hash64(addr) & mask, n;

	for (n = 0; n <= mask && p.return_site[i]; n++, i = (i + 1) & mask)
		if (p.return_addr[i] == addr)
			return true;
	return false;
}

/* The path of callee FN below PARENT, made on first use (0 when the table is full). */
static uint32_t path_intern(uint32_t parent, uint32_t fn)
{
	uint32_t mask = (1u << PATH_BITS) - 1, i, n;

	i = hash64(((uint64_t)parent << 32) | fn) & mask;
	if (!i)
		i = 1;
	for (n = 0; n <= mask; n++, i = (i + 1) & mask ? (i + 1) & mask : 1) {
		if (!p.paths[i].used) {
			p.paths[i] = (struct path){ parent, fn, 0, true };
			return i;
		}
		if (p.paths[i].parent == parent && p.paths[i].fn == fn)
			return i;
	}
	p.lost++;
	return 0;
}

static void on_call(unsigned int vcpu, void *udata)
{
	const struct site *s = udata;
	struct frame *f;

	(void)vcpu;
	p.calls++;
	if (p.depth == MAX_DEPTH) {
		p.resets++;
		p.depth = 0;
	}
	f = &p.stack[p.depth];
	f->ret = s->ret;
	f->start = p.insns;
	f->children = 0;
	f->fn = s->fn;
	f->path = path_intern(p.depth ? p.stack[p.depth - 1].path : 0, s->fn);
	p.depth++;
	if (p.depth > p.maxdepth)
		p.maxdepth = p.depth;
}

/*
 * A call of __switch_to_asm switches kernel stacks: the frames on the
 * shadow stack are the previous task's, and a v1 plugin cannot tell which
 * task runs next (its stack pointer is a register), so the stack starts
 * anew, and the frames open across the switch are never counted.
 */
static void on_switch(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	p.calls++;
	p.switches++;
	p.depth = 0;
}

/* Pop the top frame: its callee's inclusive count, its path's exclusive one. */
static void pop(void)
{
	struct frame *f = &p.stack[p.depth - 1];
	uint64_t incl = p.insns - f->start;

	p.fns[f->fn].inclusive += incl;
	p.fns[f->fn].calls++;
	p.paths[f->path].self += incl > f->children ? incl - f->children : 0;
	p.depth--;
	if (p.depth)
		p.stack[p.depth - 1].children += incl;
}

/* A ret runs: it returns from the top frame, unless a landing says otherwise. */
static void on_ret(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	p.rets++;
	if (!p.depth) {
		p.empty++;
		p.last_ret = 0;
		return;
	}
	p.last_ret = p.stack[p.depth - 1].ret;
	pop();
}

/*
 * A block at a return address runs.  After the ret that popped the frame
 * of this return address, all is well; else, when a frame deeper down
 * returns here (the ret left frames behind: an unwind), pop to it;
 * else it was reached by a jump, or by a return the probe did not see.
 */
static void on_landing(unsigned int vcpu, void *udata)
{
	uint64_t addr = (uintptr_t)udata;
	size_t d = p.depth;

	(void)vcpu;
	p.landings++;
	if (p.last_ret == addr) {
		p.matched++;
		p.last_ret = 0;
		return;
	}
	p.last_ret = 0;
	while (d && p.stack[d - 1].ret != addr)
		d--;
	if (!d) {
		p.unmatched++;
		return;
	}
	p.unwound += p.depth - d + 1;
	while (p.depth >= d)
		pop();
}

/* Skip legacy and REX prefixes: the opcode's offset, or -1. */
static int opcode_at(const unsigned char *b, size_t n)
{
	size_t i = 0;

	while (i < n) {
		switch (b[i]) {
		case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
		case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
			i++;
			continue;
		}
		break;
	}
	if (i < n && (b[i] & 0xf0) == 0x40)
		i++;
	return i < n ? (int)i : -1;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	uint64_t start = qemu_plugin_tb_vaddr(tb);

	(void)id;
	if (p.keep && p.check && is_return_site(start))
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_landing, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)start);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const unsigned char *b = qemu_plugin_insn_data(insn);
		size_t len = qemu_plugin_insn_size(insn);
		uint64_t va = qemu_plugin_insn_vaddr(insn), ret = va + len, key = 0;
		int o = opcode_at(b, len);
		bool call = false, indirect = false;

		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &p.insns, 1);
		if (o < 0 || !p.keep)
			continue;
		if (b[o] == 0xe8 && len - o == 5) {
			int32_t rel;

			memcpy(&rel, b + o + 1, 4);
			key = ret + (int64_t)rel;
			call = true;
		} else if (b[o] == 0xe8 && len - o == 3) {
			int16_t rel;

			memcpy(&rel, b + o + 1, 2);
			key = ret + (int64_t)rel;
			call = true;
		} else if (b[o] == 0xff && len - o >= 2 &&
			   (((b[o + 1] >> 3) & 7) == 2 || ((b[o + 1] >> 3) & 7) == 3)) {
			key = va;
			indirect = true;
			call = true;
		} else if (b[o] == 0xc3 || b[o] == 0xc2 || b[o] == 0xcb || b[o] == 0xca) {
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_ret, QEMU_PLUGIN_CB_NO_REGS, NULL);
		}
		if (call) {
			struct site *s = site_intern(va, ret, key, indirect);

			if (!s)
				continue;
			if (p.check)
				return_site_add(ret);
			qemu_plugin_register_vcpu_insn_exec_cb(insn, p.switch_to && key == p.switch_to ?
							       on_switch : on_call,
							       QEMU_PLUGIN_CB_NO_REGS, s);
		}
	}
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* System.map's text symbols, sorted; a map that cannot be read only costs names. */
static void load_map(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], name[400], type;
	unsigned long long addr;
	size_t alloc = 0;

	if (!f) {
		fprintf(stderr, "callstack-probe: cannot open '%s': %s\n", path, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %399s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (p.nr_syms == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			p.syms = realloc(p.syms, alloc * sizeof(*p.syms));
			if (!p.syms)
				abort();
		}
		if (!strcmp(name, "__switch_to_asm"))
			p.switch_to = addr;
		p.syms[p.nr_syms].addr = addr;
		p.syms[p.nr_syms].name = strdup(name);
		p.nr_syms++;
	}
	fclose(f);
	if (p.syms)
		qsort(p.syms, p.nr_syms, sizeof(*p.syms), sym_cmp);
}

/* The name of callee FN into BUF: its function, or its address ("@": an indirect call's site). */
static const char *fn_name(const struct fn *fn, char *buf, size_t size)
{
	uint64_t addr = fn->key;
	size_t lo = 0, hi = p.nr_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p.syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr >= 0xffff800000000000ULL) {
		const struct sym *s = &p.syms[lo - 1];

		if (fn->indirect)
			snprintf(buf, size, "@%s+0x%llx", s->name,
				 (unsigned long long)(addr - s->addr));
		else if (addr == s->addr)
			snprintf(buf, size, "%s", s->name);
		else
			snprintf(buf, size, "%s+0x%llx", s->name, (unsigned long long)(addr - s->addr));
	} else {
		snprintf(buf, size, "%s0x%llx", fn->indirect ? "@" : "", (unsigned long long)addr);
	}
	return buf;
}

static int fn_cmp(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;

	return x->inclusive > y->inclusive ? -1 : x->inclusive < y->inclusive;
}

static void put_path(FILE *f, uint32_t i, int depth)
{
	char buf[512];

	if (!i || depth > MAX_DEPTH)
		return;
	if (p.paths[i].parent) {
		put_path(f, p.paths[i].parent, depth + 1);
		fputc(';', f);
	}
	fputs(fn_name(&p.fns[p.paths[i].fn], buf, sizeof(buf)), f);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	size_t n = 1u << PATH_BITS, i, tmplen = strlen(p.out) + 16;
	char *tmp = malloc(tmplen), buf[512];
	struct fn *sorted;
	FILE *f;

	(void)id;
	(void)udata;
	if (!tmp)
		return;
	snprintf(tmp, tmplen, "%s.folded", p.out);
	f = fopen(tmp, "w");
	if (f) {
		for (i = 1; i < n; i++) {
			if (!p.paths[i].used || !p.paths[i].self)
				continue;
			put_path(f, (uint32_t)i, 0);
			fprintf(f, " %llu\n", (unsigned long long)p.paths[i].self);
		}
		fclose(f);
	}
	f = fopen(p.out, "w");
	if (!f) {
		fprintf(stderr, "callstack-probe: cannot write '%s': %s\n", p.out, strerror(errno));
		free(tmp);
		return;
	}
	fprintf(f, "callstack-probe 1\n");
	fprintf(f, "insns %llu calls %llu rets %llu empty %llu landings %llu matched %llu "
		"unwound %llu unmatched %llu resets %llu switches %llu maxdepth %llu lost %llu\n",
		(unsigned long long)p.insns, (unsigned long long)p.calls,
		(unsigned long long)p.rets, (unsigned long long)p.empty, (unsigned long long)p.landings,
		(unsigned long long)p.matched, (unsigned long long)p.unwound,
		(unsigned long long)p.unmatched, (unsigned long long)p.resets,
		(unsigned long long)p.switches,
		(unsigned long long)p.maxdepth, (unsigned long long)p.lost);
	n = 1u << FN_BITS;
	sorted = malloc(n * sizeof(*sorted));
	if (sorted) {
		memcpy(sorted, p.fns, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), fn_cmp);
		for (i = 0; i < n && sorted[i].inclusive; i++)
			fprintf(f, "fn %llu %llu %s\n", (unsigned long long)sorted[i].inclusive,
				(unsigned long long)sorted[i].calls,
				fn_name(&sorted[i], buf, sizeof(buf)));
		free(sorted);
	}
	for (i = p.depth; i > 0; i--)
		fprintf(f, "open %zu %s 0x%llx\n", i - 1, fn_name(&p.fns[p.stack[i - 1].fn], buf, sizeof(buf)),
			(unsigned long long)p.stack[i - 1].ret);
	fprintf(f, "end\n");
	fclose(f);
	free(tmp);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv)
{
	int i;

	p.check = true;
	p.keep = true;
	if (info->version.min > PROBE_API_VERSION || info->version.cur < PROBE_API_VERSION) {
		fprintf(stderr, "callstack-probe: qemu offers plugin API %d to %d, not %d\n",
			info->version.min, info->version.cur, PROBE_API_VERSION);
		return -1;
	}
	if (!info->target_name || strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "callstack-probe: decodes x86 calls: load it into qemu-system-x86_64\n");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			p.out = strdup(argv[i] + 4);
		else if (!strncmp(argv[i], "map=", 4))
			load_map(argv[i] + 4);
		else if (!strcmp(argv[i], "check=on") || !strcmp(argv[i], "check=off"))
			p.check = !strcmp(argv[i], "check=on");
		else if (!strcmp(argv[i], "stack=on") || !strcmp(argv[i], "stack=off"))
			p.keep = !strcmp(argv[i], "stack=on");
		else {
			fprintf(stderr, "callstack-probe: unknown argument '%s' "
				"(it takes out=FILE, map=System.map, check=on|off, stack=on|off)\n", argv[i]);
			return -1;
		}
	}
	if (!p.out) {
		fprintf(stderr, "callstack-probe: no out=FILE\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
