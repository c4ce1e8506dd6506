/* load.c: the meter's inputs: the kernel's System.map and exception table, kcp-guest's markers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../src/store/idle-functions.h"

#include "kcp-meter.h"

struct kernel kernel;
struct guest guest;

/* The idle loop's own functions (names as normalised: no .isra.N etc.). */
static const char *const kcp_idle_names[] = { KCP_IDLE_FUNCTIONS };

static const char *const marker_names[METER_NR_MARKS] = { METER_MARK_NAMES };
/* The guest's functions that mark; init's marker is the ELF's entry point. */
static const char *const marker_syms[METER_NR_MARKS] = {
	[METER_MARK_BEGIN] = "kcp_meter_begin",
	[METER_MARK_END] = "kcp_meter_end",
	[METER_MARK_POWEROFF] = "kcp_meter_poweroff",
};

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
int load_map(const char *path)
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
			while (kernel.nr_syms)
				free(kernel.syms[--kernel.nr_syms].name);
			return -1;
		}
		if (type == 'a' || type == 'A' || type == 'U' || type == 'v')
			continue;	/* absolute or undefined: no place in the text */
		if (kernel.nr_syms == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			kernel.syms = realloc(kernel.syms, alloc * sizeof(*kernel.syms));
			if (!kernel.syms) {
				fclose(f);
				say("out of memory");
				return -1;
			}
		}
		s = &kernel.syms[kernel.nr_syms++];
		s->addr = addr;
		s->name = is_text_type(type) ? strdup(name) : NULL;
	}
	fclose(f);
	qsort(kernel.syms, kernel.nr_syms, sizeof(*kernel.syms), cmp_sym);
	/* One counter per text address: the first (non-label) name at it. */
	kernel.func_of = xcalloc(kernel.nr_syms, sizeof(*kernel.func_of));
	kernel.func_names = xcalloc(kernel.nr_syms, sizeof(*kernel.func_names));
	kernel.idle = xcalloc(kernel.nr_syms, sizeof(*kernel.idle));
	kernel.text_lo = UINT64_MAX;
	for (i = 0; i < kernel.nr_syms; i = k) {
		for (k = i + 1; k < kernel.nr_syms && kernel.syms[k].addr == kernel.syms[i].addr; k++)
			kernel.func_of[k] = UINT32_MAX;
		/* data, or a label such as _etext: the end of the function before */
		if (!kernel.syms[i].name || is_label(kernel.syms[i].name)) {
			kernel.func_of[i] = UINT32_MAX;
			continue;
		}
		kernel.func_of[i] = (uint32_t)kernel.nr_funcs;
		kernel.func_names[kernel.nr_funcs] = kernel.syms[i].name;
		if (is_idle_name(kernel.syms[i].name))
			kernel.idle[kernel.nr_idle++] = kernel.nr_funcs;
		kernel.nr_funcs++;
		if (kernel.syms[i].addr < kernel.text_lo)
			kernel.text_lo = kernel.syms[i].addr;
		kernel.text_hi = k < kernel.nr_syms ? kernel.syms[k].addr : kernel.syms[i].addr + 1;
	}
	for (i = 0; i < kernel.nr_syms; i++) {
		const char *name = kernel.syms[i].name;

		if (!name)
			continue;
		if (!strcmp(name, "asm_exc_page_fault"))
			kernel.fault_entry[0] = kernel.syms[i].addr;
		else if (!strcmp(name, "asm_exc_general_protection"))
			kernel.fault_entry[1] = kernel.syms[i].addr;
		else if (!strcmp(name, "idt_setup_early_pf"))
			kernel.late_addr = kernel.syms[i].addr;
		else if (!strcmp(name, "early_idt_handler_array")) {
			size_t next = i + 1;

			while (next < kernel.nr_syms && kernel.syms[next].addr == kernel.syms[i].addr)
				next++;
			kernel.early_lo = kernel.syms[i].addr;
			kernel.early_hi = next < kernel.nr_syms ? kernel.syms[next].addr : kernel.early_lo;
		}
	}
	if (!kernel.nr_funcs) {
		say("the map '%s' has no text symbols", path);
		return -1;
	}
	return 0;
}

/* The counter of a kernel address: a function's, or BUCKET_KOTHER. */
size_t kernel_counter(uint64_t addr)
{
	/* the symbol found last, [from, to): a block's instructions are mostly one function's */
	static uint64_t from = 1, to;
	static size_t found;
	size_t lo = 0, hi = kernel.nr_syms, mid, ret;

	if (!kernel.nr_funcs || addr < kernel.text_lo || addr >= kernel.text_hi)
		return kernel.nr_funcs + BUCKET_KOTHER;
	if (addr >= from && addr < to)
		return found;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (kernel.syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* the first symbol at that address holds the counter */
	while (lo > 0 && kernel.syms[lo - 1].addr == kernel.syms[lo].addr)
		lo--;
	ret = kernel.func_of[lo] == UINT32_MAX ? kernel.nr_funcs + BUCKET_KOTHER : kernel.func_of[lo];
	from = kernel.syms[lo].addr;
	for (hi = lo + 1; hi < kernel.nr_syms && kernel.syms[hi].addr == from; hi++)
		;
	to = hi < kernel.nr_syms ? kernel.syms[hi].addr : kernel.text_hi;
	found = ret;
	return ret;
}

int in_extable(uint64_t addr)
{
	size_t lo = 0, hi = kernel.nr_extable;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (kernel.extable[mid] == addr)
			return 1;
		if (kernel.extable[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/*
 * Reads extable=FILE: "kcp-extable 1" (METER_EXTABLE_HEADER), then the
 * address of each of the kernel's exception table instructions, in hex,
 * one a line, ascending (what kconfperf writes from vmlinux's __ex_table).
 * 0, or -1 with a message naming the file and line.
 */
int load_extable(const char *path)
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
			if (strcmp(line, METER_EXTABLE_HEADER)) {
				say("%s:1: expected \"" METER_EXTABLE_HEADER "\", found \"%s\"", path, line);
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
		if (kernel.nr_extable && a <= kernel.extable[kernel.nr_extable - 1]) {
			say("%s:%zu: the addresses must ascend: %s after %llx", path, lineno, line,
			    (unsigned long long)kernel.extable[kernel.nr_extable - 1]);
			goto out;
		}
		if (kernel.nr_extable == alloc) {
			uint64_t *n;

			alloc = alloc ? 2 * alloc : 1024;
			n = realloc(kernel.extable, alloc * sizeof(*kernel.extable));
			if (!n) {
				fputs("kcp-meter: out of memory\n", stderr);
				abort();
			}
			kernel.extable = n;
		}
		kernel.extable[kernel.nr_extable++] = a;
	}
	if (lineno == 0) {
		say("%s: empty (expected \"" METER_EXTABLE_HEADER "\" and the addresses)", path);
		goto out;
	}
	kernel.have_extable = 1;
	ret = 0;
out:
	fclose(f);
	return ret;
}

/*
 * Reads the markers' addresses and first bytes from kcp-guest's ELF
 * (64-bit, little-endian, static): 0, or -1 with a message.
 */
int load_guest(const char *path)
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
	guest.markers[METER_MARK_INIT].addr = eh.e_entry;
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
			for (j = METER_MARK_BEGIN; j < METER_NR_MARKS; j++)
				if (!strcmp(strtab + sym.st_name, marker_syms[j]))
					guest.markers[j].addr = sym.st_value;
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
		for (k = 0; k < METER_NR_MARKS; k++) {
			struct marker *mk = &guest.markers[k];
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
	for (k = 0; k < METER_NR_MARKS; k++)
		if (!guest.markers[k].found) {
			say("the guest '%s' has no %s marker (%s): not a kcp-guest with markers",
			    path, marker_names[k], marker_syms[k] ? marker_syms[k] : "its entry");
			goto out;
		}
	guest.have_guest = 1;
	ret = 0;
out:
	free(sh);
	free(strtab);
	close(fd);
	return ret;
}
