/* kcp-meter.h: kconfperf's qemu TCG plugin, its parts and the state each keeps. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef KCP_METER_H
#define KCP_METER_H
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
 * What it writes to FILE when qemu exits is src/store/meter-file.h's.
 *
 * The parts, one concern a file, each keeping its own state below:
 *	kcp-meter.c	qemu's entry point: arguments, the instruction set, messages
 *	load.c		System.map, the exception table, kcp-guest's markers
 *	decode-*.c	one instruction set each: what its bytes say (struct isa)
 *	count.c		translation: the inline adds, watches and callbacks of a block
 *	tally.c		starts into retirements, at each marker and at exit
 *	output.c	the file, at qemu's exit
 * The plugin is built alone (no kconfperf library): headers of src/ it
 * includes are plain C.
 */
#include <stddef.h>
#include <stdint.h>

#include "../src/store/meter-file.h"

#include "qemu-plugin-api.h"

/* As src/util/wrapper.h has it (the plugin is built alone). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* kcp-meter.c */

/*
 * One instruction set (decode-*.c), chosen by qemu's target name: what the
 * meter must know of an instruction from its bytes alone.  A function
 * left NULL (a value 0) is a property no instruction of the set has.
 */
struct isa {
	const char *target;	/* qemu's target name: "x86_64", "aarch64" */
	/*
	 * Touches no memory and raises no exception, so the instruction after
	 * it starts exactly as often as it did, and needs no inline add of its
	 * own (nor, as a block's first or last, its accesses watched).  Only
	 * what qemu's translators run inline without a helper that may raise:
	 * register-to-register arithmetic, moves, lea, direct branches.
	 * Anything else, or anything not decoded, may stop (a fault, an I/O
	 * access qemu restarts): 0.
	 */
	int (*cannot_stop)(const unsigned char *p, size_t len);
	/* Its only memory access is the stack (push, pop, call, ret): kernel_cannot_stop(). */
	int (*stack_only)(const unsigned char *p, size_t len);
	/*
	 * A string instruction whose accesses follow a register, none at all
	 * when it is 0 (x86's rep movs): its accesses cannot say whether it
	 * retired, so a fault in it is seen at the kernel's fault entry.
	 */
	int (*rep_string)(const unsigned char *p, size_t len);
	/*
	 * The kernel's first instructions run at its link address less this
	 * (x86_64's startup_64, at its physical address): counted for their
	 * function, not before the kernel.
	 */
	uint64_t phys_offset;
	/*
	 * qemu 7.2's x86 translator stops a block before an instruction that
	 * would reach into a second page, but a plugin still sees the part of
	 * it read so far as the block's last instruction, which never runs:
	 * the longest instruction and the page size, where a block may so end.
	 */
	unsigned max_insn, page_size;
};
extern const struct isa isa_x86_64;	/* decode-x86.c */
extern const struct isa isa_aarch64;	/* decode-arm64.c */

extern struct plugin {
	char *out;		/* out=FILE */
	char target[32];	/* qemu's target name */
	const struct isa *isa;	/* the target's, never NULL (none known: every field 0) */
} plugin;

void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* calloc() that aborts when out of memory (qemu cannot go on without the meter's counts) */
void *xcalloc(size_t n, size_t size);

/* load.c */

/* The buckets after the functions in the counters, and their names in fn lines (output.c). */
enum { BUCKET_PRE, BUCKET_USER, BUCKET_KOTHER, NR_BUCKETS };

struct sym {
	uint64_t addr;
	char *name;		/* NULL: not text, only ends the text before it */
};

/* The kernel, from map=System.map and extable=FILE. */
extern struct kernel {
	struct sym *syms;		/* sorted by address */
	size_t nr_syms, nr_funcs;	/* text symbols get counters 0 .. nr_funcs-1 */
	uint32_t *func_of;		/* syms[i] -> its counter, or UINT32_MAX */
	char **func_names;
	size_t *idle;			/* counters of the idle functions */
	size_t nr_idle;
	uint64_t text_lo, text_hi;	/* the map's text, virtual */
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
} kernel;

struct marker {
	uint64_t addr;
	unsigned char bytes[16];	/* the ELF's first bytes there */
	size_t len;
	int found;
};

/* kcp-guest's markers, from guest=PATH. */
extern struct guest {
	struct marker markers[METER_NR_MARKS];
	int have_guest;
} guest;

/* Reads System.map ("ADDR TYPE NAME" per line); 0, or -1 with a message. */
int load_map(const char *path);
/* The exception table (store/meter-file.h's METER_EXTABLE_HEADER); 0, or -1 with a message. */
int load_extable(const char *path);
/* kcp-guest's ELF (64-bit, little-endian, static): its markers; 0, or -1 with a message. */
int load_guest(const char *path);
/* The counter of a kernel address: a function's, or BUCKET_KOTHER's. */
size_t kernel_counter(uint64_t addr);
/* addr is an instruction of the exception table. */
int in_extable(uint64_t addr);

/* Every counter: the functions', then the buckets. */
static inline size_t nr_counters(void)
{
	return kernel.nr_funcs + NR_BUCKETS;
}

/* count.c */

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
	uint32_t head;			/* its first address's entry in counting.head_vaddr */
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
	int kind;			/* enum meter_mark_kind */
	uint64_t hits;			/* callbacks so far, this one included */
	struct site *next;		/* every marker site, kept as long as the blocks */
};

/* What translation made, and what the adds and callbacks counted in it. */
extern struct counting {
	struct block *blocks;		/* every block translated, newest first */
	struct iclass *classes;
	size_t nr_classes, alloc_classes;
	uint32_t *class_hash;		/* open addressing: index + 1, 0 empty */
	size_t hash_size;
	uint64_t tb_starts;		/* blocks that may fault started: an inline add each (or rep_started) */
	uint64_t folded;		/* of them, counted by rep_started: 2 adds not run inline */
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
	int late;			/* the kernel runs on its own page tables (kernel.late_addr ran) */
} counting;

/* qemu's translation callback: instruments one block. */
void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
/* How often blocks began at vaddr, by the last tally's count. */
uint64_t entries_at(uint64_t vaddr);

static inline size_t hash_vaddr(uint64_t vaddr, size_t size)
{
	return (vaddr * 0x9e3779b97f4a7c15ULL >> 20) & (size - 1);
}

/* tally.c */

/* The counters as they stood at a marker. */
struct snapshot {
	int kind, iter;
	uint64_t total, pre, kernel, kother, user, idle;
};

/* The counts of the phases the markers frame. */
extern struct phases {
	/* per counter (functions and buckets): now, at init, sum of iterations, at begin, at power-off */
	uint64_t *now, *boot, *work, *begun, *ended;
	int ended_seen;			/* the power-off marker ran: ended holds the counts */
	int init_seen, iter, in_iter;
	struct snapshot *snaps;
	size_t nr_snaps, alloc_snaps;
} phases;

/*
 * Fills out[] (nr_counters()) with the instructions retired so far; at
 * marker site at, up to its instruction.
 */
void tally(uint64_t *out, const struct site *at);
/* The instructions started (retired, and the starts that faulted). */
uint64_t started(void);
/* The meter's own work: inline adds run, accesses counted by the watches. */
void ops(uint64_t *adds, uint64_t *watches);
/* s: the totals of counts[]. */
void take(struct snapshot *s, const uint64_t *counts);
/* A marker's callback (data: its struct site): the phases' counts as it runs. */
void marker_hit(unsigned int vcpu, void *data);

/* output.c */

/* qemu's exit callback: writes the file (store/meter-file.h) to plugin.out. */
void at_exit(qemu_plugin_id_t id, void *data);

#endif
