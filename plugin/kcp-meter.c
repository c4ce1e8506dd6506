/* kcp-meter.c: kconfperf's qemu TCG plugin: counts every guest instruction, by kernel function and phase. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Loaded into qemu-system-* with
 *
 *	-plugin file=kcp-meter.so,out=FILE[,map=System.map][,guest=kcp-guest]
 *
 * it adds one to a counter before every guest instruction executes (an
 * inline add that qemu compiles into the translated code), so at the end
 * it knows exactly how many instructions ran and where: each instruction
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
 * Under qemu's icount every vCPU runs in one thread, so the adds are
 * exact: the total equals qemu's own instruction count (both count an
 * instruction that faults and is restarted twice).  Without icount the
 * adds of several vCPUs race; kconfperf loads the plugin only under
 * icount.
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
 *	guest markers 4|none
 *	mark KIND ITER TOTAL PRE KERNEL KOTHER USER IDLE   (in order; KIND
 *		init, begin, end or poweroff; ITER counts begin/end from 0,
 *		else -1; the counters as they stood when the marker ran)
 *	total TOTAL PRE KERNEL KOTHER USER IDLE   (at qemu's exit: qemu's own count)
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

/*
 * The part of qemu's plugin API (version 1, qemu 7.x: see qemu's
 * docs/devel/tcg-plugins.rst) this plugin uses, declared here because
 * distributions do not ship qemu-plugin.h.  qemu resolves these names in
 * its own executable when it loads the plugin.
 */
typedef uint64_t qemu_plugin_id_t;

typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
				    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

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

static struct {
	char *out;
	char target[32];
	int is_x86_64;
	struct sym *syms;		/* sorted by address */
	size_t nr_syms, nr_funcs;	/* text symbols get counters 0 .. nr_funcs-1 */
	uint32_t *func_of;		/* syms[i] -> its counter, or UINT32_MAX */
	char **func_names;
	size_t *idle;			/* counters of the idle functions */
	size_t nr_idle;
	uint64_t text_lo, text_hi;	/* the map's text, virtual */
	uint64_t *counts;		/* nr_funcs + NR_BUCKETS, never moved */
	/* per counter (functions and buckets): at init, sum of iterations, at begin */
	uint64_t *boot, *work, *begun, *ended;
	int ended_seen;			/* the power-off marker ran: ended holds the counts */
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
	if (!m.nr_funcs) {
		say("the map '%s' has no text symbols", path);
		return -1;
	}
	return 0;
}

/* The counter of a kernel address: a function's, or BUCKET_KOTHER. */
static size_t kernel_counter(uint64_t addr)
{
	size_t lo = 0, hi = m.nr_syms, mid;

	if (!m.nr_funcs || addr < m.text_lo || addr >= m.text_hi)
		return m.nr_funcs + BUCKET_KOTHER;
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
	if (m.func_of[lo] == UINT32_MAX)
		return m.nr_funcs + BUCKET_KOTHER;
	return m.func_of[lo];
}

/*
 * x86_64's kernel is linked at __START_KERNEL_map + its physical address;
 * without KASLR it runs there, and its first instructions (startup_64)
 * run at the physical address itself.
 */
#define X86_64_START_KERNEL_MAP 0xffffffff80000000ULL

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

static void take(struct snapshot *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < m.nr_funcs; i++)
		s->kernel += m.counts[i];
	for (i = 0; i < m.nr_idle; i++)
		s->idle += m.counts[m.idle[i]];
	s->pre = m.counts[m.nr_funcs + BUCKET_PRE];
	s->user = m.counts[m.nr_funcs + BUCKET_USER];
	s->kother = m.counts[m.nr_funcs + BUCKET_KOTHER];
	s->total = s->kernel + s->pre + s->user + s->kother;
}

static void marker_hit(unsigned int vcpu, void *data)
{
	int kind = (int)(uintptr_t)data;
	struct snapshot *s;
	size_t i;

	(void)vcpu;
	if (kind == MARK_INIT) {
		if (m.init_seen++)
			return;	/* kcp-guest exec'd again (fork exec=1): not init */
		memcpy(m.boot, m.counts, nr_counters() * sizeof(*m.counts));
	} else if (kind == MARK_BEGIN) {
		memcpy(m.begun, m.counts, nr_counters() * sizeof(*m.counts));
		m.in_iter = 1;
	} else if (kind == MARK_POWEROFF) {
		if (m.ended_seen++)
			return;
		memcpy(m.ended, m.counts, nr_counters() * sizeof(*m.counts));
	} else if (kind == MARK_END) {
		if (!m.in_iter)
			return;	/* an end without its begin: nothing to add */
		for (i = 0; i < nr_counters(); i++)
			m.work[i] += m.counts[i] - m.begun[i];
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
	take(s);
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

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t addr = qemu_plugin_insn_vaddr(insn);
		int k = marker_at(insn, addr);

		if (k >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_hit,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)k);
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &m.counts[counter_of(addr)], 1);
	}
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
	take(&now);
	put_snap(f, "total", &now);
	if (m.init_seen)
		put_fns(f, "boot", m.boot);
	put_fns(f, "work", m.work);
	/*
	 * The whole run ends where kcp-guest asks to power off: after the
	 * kernel's power-off request the vCPU runs on (a delay loop) until
	 * qemu's main loop stops it, which follows host timing.
	 */
	put_fns(f, "all", m.ended_seen ? m.ended : m.counts);
	fprintf(f, "end\n");
	if (fflush(f) || ferror(f) | fclose(f) || rename(tmp, m.out))
		say("cannot write '%s': %s", m.out, strerror(errno));
	free(tmp);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv)
{
	const char *map = NULL, *guest = NULL;
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
		else {
			say("unknown argument '%s' (kcp-meter takes out=FILE, map=System.map, "
			    "guest=kcp-guest)", a);
			return -1;
		}
	}
	if (!m.out || !*m.out) {
		say("no out=FILE to write the counts to");
		return -1;
	}
	snprintf(m.target, sizeof(m.target), "%s", info->target_name ? info->target_name : "");
	m.is_x86_64 = !strcmp(m.target, "x86_64");
	if (map && *map && load_map(map))
		return -1;
	if (guest && *guest && load_guest(guest))
		return -1;
	m.counts = xcalloc(nr_counters(), sizeof(*m.counts));
	m.boot = xcalloc(nr_counters(), sizeof(*m.boot));
	m.work = xcalloc(nr_counters(), sizeof(*m.work));
	m.begun = xcalloc(nr_counters(), sizeof(*m.begun));
	m.ended = xcalloc(nr_counters(), sizeof(*m.ended));
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
