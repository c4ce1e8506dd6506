/* kcp-meter.c: kconfperf's qemu TCG plugin: counts every guest instruction, by kernel function and phase. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loaded into qemu-system-* with
 *
 *	-plugin file=kcp-meter.so,out=FILE[,map=System.map][,guest=kcp-guest][,extable=FILE]
 *
 * it counts every guest instruction as it starts (inline adds that qemu
 * compiles into the translated code: one where a run of instructions
 * begins, since an instruction that touches no memory and raises nothing
 * cannot stop its block, and the one after it starts as often; see
 * cannot_stop(), and kernel_cannot_stop() for the kernel's stack
 * operations), so at the end it knows exactly how many instructions
 * ran and where: each instruction
 * of the kernel's text counts for its function (the System.map symbol at
 * or below its address), the rest for one of three buckets:
 *
 *	pre	before the kernel: everything until the first instruction in
 *		the upper half of the address space (firmware, the bzImage
 *		decompressor, and on arm64 the kernel's own code that runs
 *		before its MMU is on); on x86_64 the kernel's code that runs at
 *		its physical address (startup_64 ...) counts for its function
 *	user	the lower half once the kernel has run: user space
 *	kother	the upper half outside the map's text (modules, the vsyscall
 *		page, trampolines), or all of the kernel without a map
 *
 * The counts are of retired instructions, as qemu's own under icount: an
 * instruction that faults (a page fault) has started and will start
 * again, and counts once.  The adds count starts, a counter per run of
 * each translated block; a tally (at each marker and at
 * exit) turns them into retirements: an instruction retired as often as
 * the next one in its block started; a block's last one as often as its
 * memory accesses completed (qemu's memory callbacks run after an access;
 * how many accesses one execution makes is learnt from the blocks the
 * same bytes begin); a start that did not retire is a fault when the
 * instruction started again at the head of a block, unless qemu redid it
 * in an uninstrumented block of its own (an I/O access in the middle of a
 * block).  x86's rep string instructions may make no access at all, so a
 * fault in one is seen as the kernel's fault entry (from the map) being
 * the very next block; it takes a callback at each start, so only where
 * a fault can happen and be seen: user space, and the kernel's early boot
 * and exception table (extable=FILE, see rep_needs_callback()).  Under
 * icount every vCPU runs in one thread, so
 * the adds are exact: the total equals qemu's own instruction count.
 * Without icount the adds of several vCPUs race; kconfperf loads the
 * plugin only under icount.
 *
 * A v1 plugin cannot read registers, so phases are marked by code that
 * runs: guest=PATH is kcp-guest's ELF (static, not PIE), and the plugin
 * watches its entry point (the first instruction of init ends the boot)
 * and the functions kcp_meter_begin, kcp_meter_end and kcp_meter_poweroff
 * (guest/meter.c), which the guest calls around each measured iteration
 * and before it powers off.  A marker counts only where the executed bytes
 * are the ELF's own, so another program at the same address is no marker.
 *
 * What it writes to FILE when qemu exits (written to FILE.tmp, then
 * renamed), one record a line, fields separated by single spaces:
 *
 *	kcp-meter 1
 *	target x86_64
 *	map 18234 symbols|none
 *	extable 383|none   (the exception table's instructions, extable=FILE)
 *	guest markers 4|none
 *	mark KIND ITER TOTAL PRE KERNEL KOTHER USER IDLE   (in order; KIND
 *		init, begin, end or poweroff; ITER counts begin/end from 0,
 *		else -1; the counters as they stood when the marker ran)
 *	total TOTAL PRE KERNEL KOTHER USER IDLE   (at qemu's exit: qemu's own count)
 *	started N   (instructions started: TOTAL and the starts that faulted)
 *	ops ADDS WATCHES CALLS   (the meter's own work: the inline adds it
 *		ran, the accesses its watches counted, an add each, and the
 *		callbacks it took, each a call out of the translated code)
 *	fn PHASE COUNT NAME   (PHASE boot: up to init; work: the sum of every
 *		begin..end; all: the whole run, up to the power-off marker when
 *		it ran (after it the kernel's power-off spins until qemu stops
 *		the vCPU, as host timing has it); only functions with a count;
 *		the buckets are named [before-kernel], [user], [kernel-other])
 *	end
 *
 * KERNEL counts the instructions of every kernel function, IDLE those of
 * the idle loop's own functions among them (kcp_idle_names below).  A
 * file without its "end" line is incomplete (qemu was killed).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/store/idle-functions.h"

#include "qemu-plugin-api.h"

#define EXPORT __attribute__((visibility("default")))
/* As src/util/wrapper.h has it (the plugin is built alone). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define METER_API_VERSION 1

/* qemu refuses a plugin without this symbol, or of a version it does not offer. */
EXPORT int qemu_plugin_version = METER_API_VERSION;
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv);

/* The idle loop's own functions (names as normalised: no .isra.N etc.). */
static const char *const kcp_idle_names[] = { KCP_IDLE_FUNCTIONS };

/* The buckets after the functions in counts[], and their names in fn lines. */
enum { BUCKET_PRE, BUCKET_USER, BUCKET_KOTHER, NR_BUCKETS };
static const char *const bucket_names[NR_BUCKETS] = {
	KCP_BUCKET_BEFORE_KERNEL, KCP_BUCKET_USER, KCP_BUCKET_KERNEL_OTHER,
};

struct sym {
	uint64_t addr;
	char *name;		/* NULL: not text, only ends the text before it */
};

enum marker_kind { MARK_INIT, MARK_BEGIN, MARK_END, MARK_POWEROFF, NR_MARKERS };
static const char *const marker_names[NR_MARKERS] = { "init", "begin", "end", "poweroff" };
static const char *const marker_syms[NR_MARKERS] = {
	NULL, "kcp_meter_begin", "kcp_meter_end", "kcp_meter_poweroff"
};

struct marker {
	uint64_t addr;
	unsigned char bytes[16];	/* the ELF's first bytes there */
	size_t len;
	int found;
};

/* The counters as they stood at a marker. */
struct snapshot {
	int kind, iter;
	uint64_t total, pre, kernel, kother, user, idle;
};

/*
 * What the executions of one instruction (its bytes) showed of its memory
 * accesses, gathered anew by each tally from the blocks it is first or
 * last in.  An instruction retires when its last access completes, and
 * qemu's memory callbacks run after an access completes: the accesses of
 * a block's last instruction say how often it retired, once the class
 * knows how many accesses one execution makes.
 */
struct iclass {
	unsigned char bytes[16];
	unsigned char len;
	unsigned char uneven;	/* by the last tally: blocks of it made different numbers of accesses */
	/* as a block's first instruction, its executions known (the next one's starts) */
	uint64_t done, reads, writes;
	/* as a block's last, started (not known to be done); and re-executions qemu ran uninstrumented */
	uint64_t starts, lreads, lwrites, reruns;
};

#define NO_CLASS UINT32_MAX

/*
 * One translated block.  Each instruction's inline add counts its starts;
 * one that starts and faults (a page fault, an I/O access qemu restarts)
 * is started again, and qemu, which counts retired instructions, counts it
 * once.  So an instruction retired as often as the next one in its block
 * started, and the last one as often as its memory accesses say (or as it
 * started, when it makes none).
 */
struct block {
	struct block *next;
	uint32_t n;
	uint32_t cls[3];		/* the classes of the first, last and one before last */
	uint64_t acc[3][2];		/* [first, last, before last][read, write]: completed accesses */
	int maybe_phantom;		/* the last instruction may be none (see tb_trans) */
	uint32_t *ctr;			/* each instruction's counter */
	uint64_t *vaddr;		/* each instruction's address */
	uint32_t *slot;			/* each instruction's starts: starts[slot[i]] */
	uint32_t head;			/* its first address's entry in m.heads */
	uint64_t starts[];		/* the inline adds' targets: a run's starts */
};

/* Instruction i's starts: those of the run of instructions it ends or is in. */
static inline uint64_t starts_of(const struct block *b, uint32_t i)
{
	return b->starts[b->slot[i]];
}

/*
 * x86's rep string instruction as a block's last: its accesses cannot say
 * whether a start retired (rcx may be 0), so a fault in it is seen where
 * it goes: the kernel's page fault entry, the very next block.
 */
struct rep_site {
	uint32_t ctr;
	uint64_t faults;
	/*
	 * A block of the rep string alone (each iteration runs one): its
	 * callback counts the block's start and the instruction's, in place
	 * of two inline adds; else NULL.
	 */
	uint64_t *starts;
};

/* A marker instruction in one block. */
struct site {
	struct block *b;
	uint32_t idx;
	int kind;
	uint64_t hits;			/* callbacks so far, this one included */
	struct site *next;		/* every marker site, kept as long as the blocks */
};

static struct {
	char *out;
	char target[32];
	int is_x86_64, is_aarch64;
	struct sym *syms;		/* sorted by address */
	size_t nr_syms, nr_funcs;	/* text symbols get counters 0 .. nr_funcs-1 */
	uint32_t *func_of;		/* syms[i] -> its counter, or UINT32_MAX */
	char **func_names;
	size_t *idle;			/* counters of the idle functions */
	size_t nr_idle;
	uint64_t text_lo, text_hi;	/* the map's text, virtual */
	struct block *blocks;		/* every block translated, newest first */
	struct iclass *classes;
	size_t nr_classes, alloc_classes;
	uint32_t *class_hash;		/* open addressing: index + 1, 0 empty */
	size_t hash_size;
	/* per counter (functions and buckets): now, at init, sum of iterations, at begin, at power-off */
	uint64_t *now, *boot, *work, *begun, *ended;
	int ended_seen;			/* the power-off marker ran: ended holds the counts */
	uint64_t tb_starts;		/* blocks that may fault started: an inline add each (or rep_started) */
	uint64_t folded;		/* of them, counted by rep_started: 2 adds not run inline */
	/* x86_64, from the map: where a fault enters the kernel (a vector's code, the early stubs) */
	uint64_t fault_entry[2], early_lo, early_hi;
	/*
	 * x86_64's exception table (extable=FILE): the kernel instructions
	 * that may fault once the kernel runs on its own page tables (from
	 * the first run of idt_setup_early_pf, late_addr, the early handler
	 * that maps on demand is gone).  A rep string of the kernel's text
	 * outside it never faults then, and needs no callback.
	 */
	uint64_t *extable;
	size_t nr_extable;
	int have_extable;
	uint64_t late_addr;
	int late;
	uint64_t calls;			/* callbacks run: the meter's costliest work */
	/*
	 * Every address a block begins at, made as blocks are translated
	 * (open addressing: index + 1, 0 empty), and how often blocks began
	 * there (entries, summed by each tally): a faulted instruction runs
	 * again from a block that begins with it.
	 */
	uint64_t *head_vaddr, *head_entries;
	uint32_t *head_hash;
	size_t nr_heads, alloc_heads, head_hash_size;
	struct rep_site *pending_rep;	/* the rep string that started last, in block tb_starts */
	uint64_t pending_tb;
	struct rep_site **reps;
	size_t nr_reps, alloc_reps;
	struct site *sites;		/* the marker sites, as qemu holds them */
	int in_kernel;			/* an upper-half instruction was translated */
	struct marker markers[NR_MARKERS];
	int have_guest;
	int init_seen, iter, in_iter;
	struct snapshot *snaps;
	size_t nr_snaps, alloc_snaps;
} m;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "kcp-meter: ");
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	/* qemu_plugin_outs() would need -d plugin: errors go to qemu's stderr */
	fprintf(stderr, "%s\n", buf);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fputs("kcp-meter: out of memory\n", stderr);
		abort();
	}
	return p;
}

/* Text symbols: t, T, w, W (weak functions). */
static int is_text_type(int c)
{
	return c == 't' || c == 'T' || c == 'w' || c == 'W';
}

/* Labels at a function's address that are not the function ("_stext", "__entry_text_start"). */
static int is_label(const char *name)
{
	size_t len = strlen(name);

	if (!strcmp(name, "_text") || !strcmp(name, "_stext") || !strcmp(name, "_etext") ||
	    !strcmp(name, "_sinittext") || !strcmp(name, "_einittext") ||
	    !strncmp(name, "__start_", 8) || !strncmp(name, "__stop_", 7))
		return 1;
	return name[0] == '_' && name[1] == '_' &&
	       ((len > 6 && !strcmp(name + len - 6, "_start")) ||
		(len > 4 && !strcmp(name + len - 4, "_end")));
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* at one address: functions before labels, labels before data */
	if (!x->name || !y->name)
		return !x->name - !y->name;
	return is_label(x->name) - is_label(y->name);
}

/* The name without .isra.N, .constprop.N, .part.N, .cold and the like. */
static size_t base_len(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? (size_t)(dot - name) : strlen(name);
}

static int is_idle_name(const char *name)
{
	size_t len = base_len(name), i;

	for (i = 0; i < ARRAY_SIZE(kcp_idle_names); i++)
		if (strlen(kcp_idle_names[i]) == len && !strncmp(kcp_idle_names[i], name, len))
			return 1;
	return 0;
}

/* Reads System.map ("ADDR TYPE NAME" per line); 0, or -1 with a message. */
static int load_map(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	size_t alloc = 0, i, k, lineno = 0;

	if (!f) {
		say("cannot open the map '%s': %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[512];
		struct sym *s;

		lineno++;
		if (sscanf(line, "%llx %c %511s", &addr, &type, name) != 3) {
			say("%s:%zu: expected 'ADDRESS TYPE NAME'", path, lineno);
			fclose(f);
			/* nothing of a map that failed */
			while (m.nr_syms)
				free(m.syms[--m.nr_syms].name);
			return -1;
		}
		if (type == 'a' || type == 'A' || type == 'U' || type == 'v')
			continue;	/* absolute or undefined: no place in the text */
		if (m.nr_syms == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			m.syms = realloc(m.syms, alloc * sizeof(*m.syms));
			if (!m.syms) {
				fclose(f);
				say("out of memory");
				return -1;
			}
		}
		s = &m.syms[m.nr_syms++];
		s->addr = addr;
		s->name = is_text_type(type) ? strdup(name) : NULL;
	}
	fclose(f);
	qsort(m.syms, m.nr_syms, sizeof(*m.syms), cmp_sym);
	/* One counter per text address: the first (non-label) name at it. */
	m.func_of = xcalloc(m.nr_syms, sizeof(*m.func_of));
	m.func_names = xcalloc(m.nr_syms, sizeof(*m.func_names));
	m.idle = xcalloc(m.nr_syms, sizeof(*m.idle));
	m.text_lo = UINT64_MAX;
	for (i = 0; i < m.nr_syms; i = k) {
		for (k = i + 1; k < m.nr_syms && m.syms[k].addr == m.syms[i].addr; k++)
			m.func_of[k] = UINT32_MAX;
		/* data, or a label such as _etext: the end of the function before */
		if (!m.syms[i].name || is_label(m.syms[i].name)) {
			m.func_of[i] = UINT32_MAX;
			continue;
		}
		m.func_of[i] = (uint32_t)m.nr_funcs;
		m.func_names[m.nr_funcs] = m.syms[i].name;
		if (is_idle_name(m.syms[i].name))
			m.idle[m.nr_idle++] = m.nr_funcs;
		m.nr_funcs++;
		if (m.syms[i].addr < m.text_lo)
			m.text_lo = m.syms[i].addr;
		m.text_hi = k < m.nr_syms ? m.syms[k].addr : m.syms[i].addr + 1;
	}
	for (i = 0; i < m.nr_syms; i++) {
		const char *name = m.syms[i].name;

		if (!name)
			continue;
		if (!strcmp(name, "asm_exc_page_fault"))
			m.fault_entry[0] = m.syms[i].addr;
		else if (!strcmp(name, "asm_exc_general_protection"))
			m.fault_entry[1] = m.syms[i].addr;
		else if (!strcmp(name, "idt_setup_early_pf"))
			m.late_addr = m.syms[i].addr;
		else if (!strcmp(name, "early_idt_handler_array")) {
			size_t next = i + 1;

			while (next < m.nr_syms && m.syms[next].addr == m.syms[i].addr)
				next++;
			m.early_lo = m.syms[i].addr;
			m.early_hi = next < m.nr_syms ? m.syms[next].addr : m.early_lo;
		}
	}
	if (!m.nr_funcs) {
		say("the map '%s' has no text symbols", path);
		return -1;
	}
	return 0;
}

/* The counter of a kernel address: a function's, or BUCKET_KOTHER. */
static size_t kernel_counter(uint64_t addr)
{
	/* the symbol found last, [from, to): a block's instructions are mostly one function's */
	static uint64_t from = 1, to;
	static size_t found;
	size_t lo = 0, hi = m.nr_syms, mid, ret;

	if (!m.nr_funcs || addr < m.text_lo || addr >= m.text_hi)
		return m.nr_funcs + BUCKET_KOTHER;
	if (addr >= from && addr < to)
		return found;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (m.syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* the first symbol at that address holds the counter */
	while (lo > 0 && m.syms[lo - 1].addr == m.syms[lo].addr)
		lo--;
	ret = m.func_of[lo] == UINT32_MAX ? m.nr_funcs + BUCKET_KOTHER : m.func_of[lo];
	from = m.syms[lo].addr;
	for (hi = lo + 1; hi < m.nr_syms && m.syms[hi].addr == from; hi++)
		;
	to = hi < m.nr_syms ? m.syms[hi].addr : m.text_hi;
	found = ret;
	return ret;
}

/*
 * x86_64's kernel is linked at __START_KERNEL_map + its physical address;
 * without KASLR it runs there, and its first instructions (startup_64)
 * run at the physical address itself.
 */
#define X86_64_START_KERNEL_MAP 0xffffffff80000000ULL
#define X86_PAGE_SIZE 4096
#define X86_MAX_INSN 15

static size_t counter_of(uint64_t addr)
{
	int upper = (addr >> 63) != 0;

	if (upper) {
		m.in_kernel = 1;
		return kernel_counter(addr);
	}
	if (m.in_kernel)
		return m.nr_funcs + BUCKET_USER;
	if (m.is_x86_64 && m.nr_funcs && addr + X86_64_START_KERNEL_MAP >= m.text_lo &&
	    addr + X86_64_START_KERNEL_MAP < m.text_hi) {
		size_t c = kernel_counter(addr + X86_64_START_KERNEL_MAP);

		if (c < m.nr_funcs)
			return c;
	}
	return m.nr_funcs + BUCKET_PRE;
}

static size_t nr_counters(void)
{
	return m.nr_funcs + NR_BUCKETS;
}

/*
 * x86's string instructions with a rep prefix make as many accesses as
 * rcx says, none at all when it is 0: their accesses cannot say whether
 * they retired.
 */
static int is_rep_string(const unsigned char *p, size_t len)
{
	int rep = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c == 0xf2 || c == 0xf3)
			rep = 1;
		else if (c == 0x26 || c == 0x2e || c == 0x36 || c == 0x3e || c == 0x64 ||
			 c == 0x65 || c == 0x66 || c == 0x67 || c == 0xf0 || (c >= 0x40 && c <= 0x4f))
			continue;
		else
			return rep && ((c >= 0x6c && c <= 0x6f) || (c >= 0xa4 && c <= 0xa7) ||
				       (c >= 0xaa && c <= 0xaf));
	}
	return 0;
}

/* An x86 rep string instruction (rep_started sees its faults; it is never watched). */
static int insn_is_rep(const struct qemu_plugin_insn *insn)
{
	return m.is_x86_64 && is_rep_string(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
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

	if (len > sizeof(m.classes[0].bytes))
		len = sizeof(m.classes[0].bytes);
	if (2 * (m.nr_classes + 1) > m.hash_size) {
		size_t size = m.hash_size ? 2 * m.hash_size : 65536;

		free(m.class_hash);
		m.class_hash = xcalloc(size, sizeof(*m.class_hash));
		m.hash_size = size;
		for (idx = 0; idx < m.nr_classes; idx++) {
			i = hash_bytes(m.classes[idx].bytes, m.classes[idx].len) & (size - 1);
			while (m.class_hash[i])
				i = (i + 1) & (size - 1);
			m.class_hash[i] = idx + 1;
		}
	}
	h = hash_bytes(p, len);
	for (i = h & (m.hash_size - 1); m.class_hash[i]; i = (i + 1) & (m.hash_size - 1)) {
		struct iclass *c = &m.classes[m.class_hash[i] - 1];

		if (c->len == len && !memcmp(c->bytes, p, len))
			return m.class_hash[i] - 1;
	}
	if (m.nr_classes == m.alloc_classes) {
		m.alloc_classes = m.alloc_classes ? 2 * m.alloc_classes : 4096;
		m.classes = realloc(m.classes, m.alloc_classes * sizeof(*m.classes));
		if (!m.classes) {
			fputs("kcp-meter: out of memory\n", stderr);
			abort();
		}
	}
	idx = (uint32_t)m.nr_classes++;
	memset(&m.classes[idx], 0, sizeof(m.classes[idx]));
	memcpy(m.classes[idx].bytes, p, len);
	m.classes[idx].len = (unsigned char)len;
	m.class_hash[i] = idx + 1;
	return idx;
}

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

	for (i = 0; i < m.nr_classes; i++) {
		struct iclass *c = &m.classes[i];

		c->done = c->reads = c->writes = 0;
		c->starts = c->lreads = c->lwrites = c->reruns = 0;
	}
	for (b = m.blocks; b; b = b->next) {
		uint32_t n = real_n(b);
		int w = last_watch(b, n);
		struct iclass *c;

		if (n >= 2 && b->cls[0] != NO_CLASS) {
			c = &m.classes[b->cls[0]];
			c->done += starts_of(b, 1);
			c->reads += b->acc[0][0];
			c->writes += b->acc[0][1];
		}
		if (b->cls[w] == NO_CLASS)
			continue;
		c = &m.classes[b->cls[w]];
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

static size_t hash_vaddr(uint64_t vaddr, size_t size)
{
	return (vaddr * 0x9e3779b97f4a7c15ULL >> 20) & (size - 1);
}

/* The slot of vaddr in m.head_hash: where its index + 1 is, or the empty slot for it. */
static size_t head_slot(uint64_t vaddr)
{
	size_t i;

	for (i = hash_vaddr(vaddr, m.head_hash_size); m.head_hash[i];
	     i = (i + 1) & (m.head_hash_size - 1))
		if (m.head_vaddr[m.head_hash[i] - 1] == vaddr)
			break;
	return i;
}

/* vaddr's index in m.heads, made when new (a block begins there). */
static uint32_t head_of(uint64_t vaddr)
{
	size_t i, k;

	if (2 * (m.nr_heads + 1) > m.head_hash_size) {
		m.head_hash_size = m.head_hash_size ? 2 * m.head_hash_size : 65536;
		free(m.head_hash);
		m.head_hash = xcalloc(m.head_hash_size, sizeof(*m.head_hash));
		for (k = 0; k < m.nr_heads; k++)
			m.head_hash[head_slot(m.head_vaddr[k])] = (uint32_t)k + 1;
	}
	i = head_slot(vaddr);
	if (m.head_hash[i])
		return m.head_hash[i] - 1;
	if (m.nr_heads == m.alloc_heads) {
		m.alloc_heads = m.alloc_heads ? 2 * m.alloc_heads : 16384;
		m.head_vaddr = realloc(m.head_vaddr, m.alloc_heads * sizeof(*m.head_vaddr));
		m.head_entries = realloc(m.head_entries, m.alloc_heads * sizeof(*m.head_entries));
		if (!m.head_vaddr || !m.head_entries) {
			fputs("kcp-meter: out of memory\n", stderr);
			abort();
		}
	}
	m.head_vaddr[m.nr_heads] = vaddr;
	m.head_entries[m.nr_heads] = 0;
	m.head_hash[i] = (uint32_t)m.nr_heads + 1;
	return (uint32_t)m.nr_heads++;
}

/* How often blocks began at vaddr, by the last tally's count. */
static uint64_t entries_at(uint64_t vaddr)
{
	size_t i;

	if (!m.head_hash_size)
		return 0;
	i = head_slot(vaddr);
	return m.head_hash[i] ? m.head_entries[m.head_hash[i] - 1] : 0;
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

	for (i = 0; i < m.nr_classes; i++)
		m.classes[i].uneven = 0;
	for (b = m.blocks; b; b = b->next) {
		uint32_t n = real_n(b);
		int w = last_watch(b, n);
		uint64_t started = starts_of(b, n - 1), rd, wr, k, acc, retried;
		struct iclass *c;

		if (b->cls[w] == NO_CLASS || started < 16)
			continue;
		c = &m.classes[b->cls[w]];
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

	if (b->cls[w] == NO_CLASS || class_accesses(&m.classes[b->cls[w]], &rd, &wr))
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
	if (b->cls[1] == NO_CLASS || class_accesses(&m.classes[b->cls[1]], &rd, &wr) ||
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
static void tally(uint64_t *out, const struct site *at)
{
	const struct block *b;
	uint32_t i;
	size_t k;

	if (aborts)
		memset(aborts, 0, aborts_size * sizeof(*aborts));
	aborts_used = 0;
	learn();
	/* how often each address began a block: a faulted instruction runs again so */
	if (m.nr_heads)
		memset(m.head_entries, 0, m.nr_heads * sizeof(*m.head_entries));
	for (b = m.blocks; b; b = b->next)
		m.head_entries[b->head] += starts_of(b, 0);
	check_even();
	memset(out, 0, nr_counters() * sizeof(*out));
	for (b = m.blocks; b; b = b->next) {
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
	for (k = 0; k < m.nr_reps; k++)
		out[m.reps[k]->ctr] -= m.reps[k]->faults;
}

static uint64_t started(void)
{
	const struct block *b;
	uint64_t n = 0;
	uint32_t i;

	for (b = m.blocks; b; b = b->next)
		for (i = 0; i < b->n; i++)
			n += starts_of(b, i);
	return n;
}

/* The meter's own work: inline adds run, accesses counted by the watches. */
static void ops(uint64_t *adds, uint64_t *watches)
{
	const struct block *b;
	uint32_t i;

	*adds = m.tb_starts - 2 * m.folded;	/* + each block's slots, below */
	*watches = 0;
	for (b = m.blocks; b; b = b->next) {
		for (i = 0; i < b->n; i++)
			if (!i || b->slot[i] != b->slot[i - 1])
				*adds += starts_of(b, i);
		for (i = 0; i < 3; i++)
			*watches += b->acc[i][0] + b->acc[i][1];
	}
}

static void take(struct snapshot *s, const uint64_t *counts)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < m.nr_funcs; i++)
		s->kernel += counts[i];
	for (i = 0; i < m.nr_idle; i++)
		s->idle += counts[m.idle[i]];
	s->pre = counts[m.nr_funcs + BUCKET_PRE];
	s->user = counts[m.nr_funcs + BUCKET_USER];
	s->kother = counts[m.nr_funcs + BUCKET_KOTHER];
	s->total = s->kernel + s->pre + s->user + s->kother;
}

static void marker_hit(unsigned int vcpu, void *data)
{
	struct site *site = data;
	int kind = site->kind;
	struct snapshot *s;
	size_t i;

	(void)vcpu;
	m.calls++;
	site->hits++;
	if (kind == MARK_INIT) {
		if (m.init_seen++)
			return;	/* kcp-guest exec'd again (fork exec=1): not init */
		tally(m.now, site);
		memcpy(m.boot, m.now, nr_counters() * sizeof(*m.now));
	} else if (kind == MARK_BEGIN) {
		tally(m.now, site);
		memcpy(m.begun, m.now, nr_counters() * sizeof(*m.now));
		m.in_iter = 1;
	} else if (kind == MARK_POWEROFF) {
		if (m.ended_seen++)
			return;
		tally(m.now, site);
		memcpy(m.ended, m.now, nr_counters() * sizeof(*m.now));
	} else if (kind == MARK_END) {
		if (!m.in_iter)
			return;	/* an end without its begin: nothing to add */
		tally(m.now, site);
		for (i = 0; i < nr_counters(); i++)
			if (m.now[i] > m.begun[i])
				m.work[i] += m.now[i] - m.begun[i];
		m.in_iter = 0;
	}
	if (m.nr_snaps == m.alloc_snaps) {
		m.alloc_snaps = m.alloc_snaps ? 2 * m.alloc_snaps : 64;
		m.snaps = realloc(m.snaps, m.alloc_snaps * sizeof(*m.snaps));
		if (!m.snaps) {
			fputs("kcp-meter: out of memory\n", stderr);
			abort();
		}
	}
	s = &m.snaps[m.nr_snaps++];
	take(s, m.now);
	s->kind = kind;
	s->iter = kind == MARK_BEGIN || kind == MARK_END ? m.iter : -1;
	if (kind == MARK_END)
		m.iter++;
}

/* The marker at addr whose bytes the instruction has, or -1. */
static int marker_at(const struct qemu_plugin_insn *insn, uint64_t addr)
{
	size_t size;
	int k;

	if (!m.have_guest || !m.in_kernel || (addr >> 63))
		return -1;
	for (k = 0; k < NR_MARKERS; k++) {
		const struct marker *mk = &m.markers[k];

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
	return (addr && (addr == m.fault_entry[0] || addr == m.fault_entry[1])) ||
	       (addr >= m.early_lo && addr < m.early_hi);
}

static void rep_started(unsigned int vcpu, void *data)
{
	struct rep_site *rep = data;

	(void)vcpu;
	m.calls++;
	if (rep->starts) {
		m.tb_starts++;
		(*rep->starts)++;
		m.folded++;
	}
	m.pending_rep = rep;
	m.pending_tb = m.tb_starts;
}

/* The page fault entry's first instruction: did the rep string that just started fault? */
static void page_fault_entered(unsigned int vcpu, void *data)
{
	(void)vcpu;
	(void)data;
	m.calls++;
	if (m.pending_rep && m.tb_starts == m.pending_tb + 1)
		m.pending_rep->faults++;
	m.pending_rep = NULL;
}

static int in_extable(uint64_t addr)
{
	size_t lo = 0, hi = m.nr_extable;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m.extable[mid] == addr)
			return 1;
		if (m.extable[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
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
	if (ctr == m.nr_funcs + BUCKET_PRE)
		return 0;
	if (!m.have_extable || !m.late || ctr >= m.nr_funcs)
		return 1;
	return in_extable(addr);
}

/*
 * Reads extable=FILE: "kcp-extable 1", then the address of each of the
 * kernel's exception table instructions, in hex, one a line, ascending
 * (what kconfperf writes from vmlinux's __ex_table).  0, or -1 with a
 * message naming the file and line.
 */
static int load_extable(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[128];
	size_t alloc = 0, lineno = 0;
	int ret = -1;

	if (!f) {
		say("cannot open the exception table '%s': %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *end;
		unsigned long long a;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			say("%s:%zu: a line too long (expected a hex address)", path, lineno);
			goto out;
		}
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1) {
			if (strcmp(line, "kcp-extable 1")) {
				say("%s:1: expected \"kcp-extable 1\", found \"%s\"", path, line);
				goto out;
			}
			continue;
		}
		errno = 0;
		a = strtoull(line, &end, 16);
		if (!*line || *end || errno || line[0] == '-' || line[0] == '+' || line[0] == ' ') {
			say("%s:%zu: expected a hex address, found \"%s\"", path, lineno, line);
			goto out;
		}
		if (m.nr_extable && a <= m.extable[m.nr_extable - 1]) {
			say("%s:%zu: the addresses must ascend: %s after %llx", path, lineno, line,
			    (unsigned long long)m.extable[m.nr_extable - 1]);
			goto out;
		}
		if (m.nr_extable == alloc) {
			uint64_t *n;

			alloc = alloc ? 2 * alloc : 1024;
			n = realloc(m.extable, alloc * sizeof(*m.extable));
			if (!n) {
				fputs("kcp-meter: out of memory\n", stderr);
				abort();
			}
			m.extable = n;
		}
		m.extable[m.nr_extable++] = a;
	}
	if (lineno == 0) {
		say("%s: empty (expected \"kcp-extable 1\" and the addresses)", path);
		goto out;
	}
	m.have_extable = 1;
	ret = 0;
out:
	fclose(f);
	return ret;
}

/*
 * Instructions that cannot stop a block: they touch no memory and raise
 * no exception, so the instruction after one starts exactly as often as
 * it did, and needs no inline add of its own (nor, as a block's first or
 * last, its accesses watched).  Only what qemu's translators run inline
 * without a helper that may raise: register-to-register arithmetic,
 * moves, lea, direct branches (and x86's jump through a register).
 * Anything else, or anything not decoded, may stop (a fault, an I/O
 * access qemu restarts).
 */

/* x86 (any mode): the bytes of one instruction. */
static int x86_cannot_stop(const unsigned char *p, size_t len)
{
	size_t i = 0;
	int rex = 0, mod, reg;
	unsigned char op;

	/* prefixes: operand size, address size, REX (64-bit mode); no lock, rep or segment */
	for (; i < len; i++) {
		if (p[i] == 0x66 || p[i] == 0x67)
			continue;
		if (p[i] >= 0x40 && p[i] <= 0x4f && i + 1 < len) {
			rex = 1;	/* in 16- or 32-bit code inc/dec, an instruction of its own */
			continue;
		}
		break;
	}
	if (i >= len)
		return 0;
	op = p[i++];
	mod = i < len ? p[i] >> 6 : -1;
	reg = i < len ? (p[i] >> 3) & 7 : -1;
	if (op == 0x0f) {
		if (i >= len)
			return 0;
		op = p[i++];
		mod = i < len ? p[i] >> 6 : -1;
		reg = i < len ? (p[i] >> 3) & 7 : -1;
		if (op == 0x1f)
			return reg == 0;		/* nop r/m: never reads it */
		if ((op >= 0x40 && op <= 0x4f) ||	/* cmovcc */
		    (op >= 0x90 && op <= 0x9f) ||	/* setcc */
		    op == 0xa3 || op == 0xab || op == 0xb3 || op == 0xbb ||	/* bt, bts, btr, btc */
		    op == 0xa4 || op == 0xa5 || op == 0xac || op == 0xad ||	/* shld, shrd */
		    op == 0xaf || op == 0xbc || op == 0xbd ||	/* imul, bsf, bsr */
		    op == 0xb6 || op == 0xb7 || op == 0xbe || op == 0xbf)	/* movzx, movsx */
			return mod == 3;
		if (op == 0xba)
			return mod == 3 && reg >= 4;	/* bt imm */
		if (op >= 0xc8 && op <= 0xcf)
			return 1;			/* bswap */
		return op >= 0x80 && op <= 0x8f;	/* jcc rel32 */
	}
	if (op < 0x40 && (op & 7) <= 3)
		return mod == 3;			/* add .. cmp r/m, r */
	if (op < 0x40 && ((op & 7) == 4 || (op & 7) == 5))
		return 1;				/* add .. cmp al/eax, imm */
	switch (op) {
	case 0x63:
		return rex && mod == 3;			/* movsxd (arpl outside 64-bit code) */
	case 0x69: case 0x6b:				/* imul imm */
	case 0x80: case 0x81: case 0x83:		/* group 1 */
	case 0x84: case 0x85: case 0x86: case 0x87:	/* test, xchg */
	case 0x88: case 0x89: case 0x8a: case 0x8b:	/* mov */
		return mod == 3;
	case 0x8d:
		return mod >= 0 && mod != 3;		/* lea: computes, never accesses */
	case 0xc0: case 0xc1: case 0xd0: case 0xd1: case 0xd2: case 0xd3:
		return mod == 3 && reg != 6;		/* shifts and rotates */
	case 0xc6: case 0xc7:
		return mod == 3 && reg == 0;		/* mov imm */
	case 0xf6: case 0xf7:
		return mod == 3 && (reg == 0 || (reg >= 2 && reg <= 5));	/* not div */
	case 0xfe:
		return mod == 3 && reg <= 1;		/* inc, dec */
	case 0xff:
		return mod == 3 && (reg <= 1 || reg == 4);	/* inc, dec, jmp reg */
	case 0x98: case 0x99:				/* cbw, cwd */
	case 0xa8: case 0xa9:				/* test imm */
	case 0xeb: case 0xe9:				/* jmp rel */
	case 0xf5: case 0xf8: case 0xf9: case 0xfc: case 0xfd:	/* cmc, clc, stc, cld, std */
		return 1;
	default:
		return (op >= 0x70 && op <= 0x7f) ||	/* jcc rel8 */
		       (op >= 0x90 && op <= 0x97) ||	/* nop, xchg eax */
		       (op >= 0xb0 && op <= 0xbf);	/* mov imm */
	}
}

/* arm64: one A64 instruction (little-endian). */
static int a64_cannot_stop(const unsigned char *p, size_t len)
{
	uint32_t insn;

	if (len != 4)
		return 0;
	insn = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	if ((insn & 0x1c000000) == 0x10000000)	/* data processing, immediate */
		return (insn & 0x03800000) != 0x01800000;	/* not addg, subg (MTE) */
	if ((insn & 0x0e000000) == 0x0a000000) {	/* data processing, register */
		uint32_t op1 = insn >> 28 & 1, op2 = insn >> 21 & 0xf, op3 = insn >> 10 & 0x3f;

		if (!op1)
			return 1;			/* logical, add/sub (shifted, extended) */
		if (!op2)
			return !op3;			/* adc, sbc (not the flag-manipulation forms) */
		/* conditional compare, conditional select, 3-source; not 1- and 2-source (div, crc, pac) */
		return op2 == 2 || op2 == 4 || (op2 & 8);
	}
	return (insn & 0x7c000000) == 0x14000000 ||	/* b, bl */
	       (insn & 0xff000010) == 0x54000000 ||	/* b.cond */
	       (insn & 0x7e000000) == 0x34000000 ||	/* cbz, cbnz */
	       (insn & 0x7e000000) == 0x36000000;	/* tbz, tbnz */
}

static int cannot_stop(const struct qemu_plugin_insn *insn)
{
	const unsigned char *p = qemu_plugin_insn_data(insn);
	size_t len = qemu_plugin_insn_size(insn);

	if (m.is_x86_64)
		return x86_cannot_stop(p, len);
	if (m.is_aarch64)
		return a64_cannot_stop(p, len);
	return 0;
}

/*
 * x86 instructions whose only memory access is the stack: push and pop of
 * a register, push of an immediate, a direct call, a call through a
 * register, ret and leave (REX prefixes only).
 */
static int x86_stack_only(const unsigned char *p, size_t len)
{
	size_t i = 0;
	unsigned char op;

	while (i + 1 < len && p[i] >= 0x40 && p[i] <= 0x4f)
		i++;
	if (i >= len)
		return 0;
	op = p[i++];
	if ((op >= 0x50 && op <= 0x5f) || op == 0x6a || op == 0x68 || op == 0xe8 || op == 0xc3 ||
	    op == 0xc9)
		return 1;
	return op == 0xff && i < len && (p[i] >> 6) == 3 && ((p[i] >> 3) & 7) == 2;
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
	return m.is_x86_64 && m.have_extable && m.late && ctr < m.nr_funcs && !in_extable(addr) &&
	       x86_stack_only(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
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

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
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
	if (m.is_x86_64 && n >= 2) {
		uint64_t first = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0));
		uint64_t last = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, n - 1));

		/* it starts where a long instruction would reach into the next page */
		b->maybe_phantom = last + X86_MAX_INSN >= (first | (X86_PAGE_SIZE - 1)) + 1;
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t addr = qemu_plugin_insn_vaddr(insn);
		int k = marker_at(insn, addr);

		b->ctr[i] = (uint32_t)counter_of(addr);
		b->vaddr[i] = addr;
		/* from here on the early page fault handler cannot run (see rep_needs_callback) */
		if (!i && m.late_addr && addr == m.late_addr)
			m.late = 1;
		if (!i && is_fault_entry(addr))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, page_fault_entered,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		if (i == n - 1 && insn_is_rep(insn) && rep_needs_callback(addr, b->ctr[i])) {
			struct rep_site *rep = xcalloc(1, sizeof(*rep));

			rep->ctr = b->ctr[i];
			if (m.nr_reps == m.alloc_reps) {
				m.alloc_reps = m.alloc_reps ? 2 * m.alloc_reps : 256;
				m.reps = realloc(m.reps, m.alloc_reps * sizeof(*m.reps));
				if (!m.reps) {
					fputs("kcp-meter: out of memory\n", stderr);
					abort();
				}
			}
			m.reps[m.nr_reps++] = rep;
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
			site->next = m.sites;
			m.sites = site;
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
							 &m.tb_starts, 1);
	b->next = m.blocks;
	m.blocks = b;
}

/*
 * Reads the markers' addresses and first bytes from kcp-guest's ELF
 * (64-bit, little-endian, static): 0, or -1 with a message.
 */
static int load_guest(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;
	Elf64_Phdr ph;
	char *strtab = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	size_t i, k;

	if (fd < 0) {
		say("cannot open the guest '%s': %s", path, strerror(errno));
		return -1;
	}
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_type != ET_EXEC ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shnum > 4096) {
		say("the guest '%s' is not a static 64-bit little-endian ELF executable", path);
		goto out;
	}
	m.markers[MARK_INIT].addr = eh.e_entry;
	sh = xcalloc(eh.e_shnum, sizeof(*sh));
	if (pread(fd, sh, eh.e_shnum * sizeof(*sh), (off_t)eh.e_shoff) !=
	    (ssize_t)(eh.e_shnum * sizeof(*sh))) {
		say("cannot read the sections of '%s'", path);
		goto out;
	}
	for (i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr *st = &sh[i], *str;
		Elf64_Sym sym;

		if (st->sh_type != SHT_SYMTAB || st->sh_link >= eh.e_shnum)
			continue;
		str = &sh[st->sh_link];
		strtab = xcalloc(str->sh_size + 1, 1);
		if (pread(fd, strtab, str->sh_size, (off_t)str->sh_offset) != (ssize_t)str->sh_size)
			break;
		for (k = 0; k < st->sh_size / sizeof(sym); k++) {
			int j;

			if (pread(fd, &sym, sizeof(sym), (off_t)(st->sh_offset + k * sizeof(sym))) !=
			    (ssize_t)sizeof(sym))
				break;
			if (sym.st_name >= str->sh_size)
				continue;
			for (j = MARK_BEGIN; j < NR_MARKERS; j++)
				if (!strcmp(strtab + sym.st_name, marker_syms[j]))
					m.markers[j].addr = sym.st_value;
		}
		break;
	}
	/* Each marker's first bytes, from the segment that holds it. */
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * eh.e_phentsize)) !=
		    (ssize_t)sizeof(ph))
			break;
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		for (k = 0; k < NR_MARKERS; k++) {
			struct marker *mk = &m.markers[k];
			uint64_t off;
			ssize_t n;

			if (!mk->addr || mk->addr < ph.p_vaddr || mk->addr >= ph.p_vaddr + ph.p_filesz)
				continue;
			off = ph.p_offset + (mk->addr - ph.p_vaddr);
			n = pread(fd, mk->bytes, sizeof(mk->bytes), (off_t)off);
			if (n > 0) {
				mk->len = (size_t)n;
				mk->found = 1;
			}
		}
	}
	for (k = 0; k < NR_MARKERS; k++)
		if (!m.markers[k].found) {
			say("the guest '%s' has no %s marker (%s): not a kcp-guest with markers",
			    path, marker_names[k], marker_syms[k] ? marker_syms[k] : "its entry");
			goto out;
		}
	m.have_guest = 1;
	ret = 0;
out:
	free(sh);
	free(strtab);
	close(fd);
	return ret;
}

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
			fprintf(f, "fn %s %llu %s\n", phase, (unsigned long long)counts[i],
				i < m.nr_funcs ? m.func_names[i] : bucket_names[i - m.nr_funcs]);
}

static void at_exit(qemu_plugin_id_t id, void *data)
{
	size_t len = strlen(m.out) + 5, i;
	char *tmp = xcalloc(len, 1);
	struct snapshot now;
	FILE *f;

	(void)id;
	(void)data;
	snprintf(tmp, len, "%s.tmp", m.out);
	f = fopen(tmp, "w");
	if (!f) {
		say("cannot write '%s': %s", tmp, strerror(errno));
		free(tmp);
		return;
	}
	fprintf(f, "kcp-meter %d\ntarget %s\n", METER_API_VERSION, m.target);
	if (m.nr_funcs)
		fprintf(f, "map %zu symbols\n", m.nr_funcs);
	else
		fprintf(f, "map none\n");
	if (m.have_extable)
		fprintf(f, "extable %zu\n", m.nr_extable);
	else
		fprintf(f, "extable none\n");
	if (m.have_guest)
		fprintf(f, "guest markers %d\n", NR_MARKERS);
	else
		fprintf(f, "guest none\n");
	for (i = 0; i < m.nr_snaps; i++) {
		char what[64];

		snprintf(what, sizeof(what), "mark %s %d", marker_names[m.snaps[i].kind],
			 m.snaps[i].iter);
		put_snap(f, what, &m.snaps[i]);
	}
	tally(m.now, NULL);
	take(&now, m.now);
	put_snap(f, "total", &now);
	fprintf(f, "started %llu\n", (unsigned long long)started());
	{
		uint64_t adds, watches;

		ops(&adds, &watches);
		fprintf(f, "ops %llu %llu %llu\n", (unsigned long long)adds, (unsigned long long)watches,
			(unsigned long long)m.calls);
	}
	if (m.init_seen)
		put_fns(f, "boot", m.boot);
	put_fns(f, "work", m.work);
	/*
	 * The whole run ends where kcp-guest asks to power off: after the
	 * kernel's power-off request the vCPU runs on (a delay loop) until
	 * qemu's main loop stops it, which follows host timing.
	 */
	put_fns(f, "all", m.ended_seen ? m.ended : m.now);
	fprintf(f, "end\n");
	if (fflush(f) || ferror(f) | fclose(f) || rename(tmp, m.out))
		say("cannot write '%s': %s", m.out, strerror(errno));
	free(tmp);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv)
{
	const char *map = NULL, *guest = NULL, *extable = NULL;
	int i;

	if (info->version.min > METER_API_VERSION || info->version.cur < METER_API_VERSION) {
		say("this qemu offers plugin API versions %d to %d; kcp-meter uses version %d "
		    "(qemu 7.x and 8.x; qemu 9.0 moved to version 2)", info->version.min,
		    info->version.cur, METER_API_VERSION);
		return -1;
	}
	if (!info->system_emulation) {
		say("kcp-meter counts a whole machine: load it into qemu-system-*, not a user-mode qemu");
		return -1;
	}
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "out=", 4)) {
			free(m.out);
			m.out = strdup(a + 4);
		}
		else if (!strncmp(a, "map=", 4))
			map = a + 4;
		else if (!strncmp(a, "guest=", 6))
			guest = a + 6;
		else if (!strncmp(a, "extable=", 8))
			extable = a + 8;
		else {
			say("unknown argument '%s' (kcp-meter takes out=FILE, map=System.map, "
			    "guest=kcp-guest, extable=FILE)", a);
			return -1;
		}
	}
	if (!m.out || !*m.out) {
		say("no out=FILE to write the counts to");
		return -1;
	}
	snprintf(m.target, sizeof(m.target), "%s", info->target_name ? info->target_name : "");
	m.is_x86_64 = !strcmp(m.target, "x86_64");
	m.is_aarch64 = !strcmp(m.target, "aarch64");
	if (map && *map && load_map(map))
		return -1;
	if (guest && *guest && load_guest(guest))
		return -1;
	if (extable && *extable && load_extable(extable))
		return -1;
	m.now = xcalloc(nr_counters(), sizeof(*m.now));
	m.boot = xcalloc(nr_counters(), sizeof(*m.boot));
	m.work = xcalloc(nr_counters(), sizeof(*m.work));
	m.begun = xcalloc(nr_counters(), sizeof(*m.begun));
	m.ended = xcalloc(nr_counters(), sizeof(*m.ended));
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
