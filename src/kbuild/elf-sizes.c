/* elf-sizes.c: what kconfperf reads from a vmlinux: text, data and bss, and x86_64's exception table. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "kbuild/elf-sizes.h"
#include "store/meter-file.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* More sections than any kernel has: a header that claims more is broken. */
#define MAX_SECTIONS 65536

static int swap;	/* the file's byte order is not this machine's */

static uint16_t u16(uint16_t v)
{
	return swap ? __builtin_bswap16(v) : v;
}

static uint32_t u32(uint32_t v)
{
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t u64(uint64_t v)
{
	return swap ? __builtin_bswap64(v) : v;
}

static int read_at(int fd, void *buf, size_t len, off_t at)
{
	ssize_t n = pread(fd, buf, len, at);

	return n == (ssize_t)len ? 0 : -1;
}

/* A section's class as size(1) counts it: 't', 'd', 'b', or 0 when it is not loaded. */
static char section_class(const Elf64_Shdr *sh)
{
	uint64_t flags = u64(sh->sh_flags);

	if (!(flags & SHF_ALLOC))
		return 0;
	if (!(flags & SHF_WRITE))
		return 't';
	return u32(sh->sh_type) == SHT_NOBITS ? 'b' : 'd';
}

static void add_to(int64_t *text, int64_t *data, int64_t *bss, char class, uint64_t size)
{
	if (class == 't')
		*text += (int64_t)size;
	else if (class == 'd')
		*data += (int64_t)size;
	else if (class == 'b')
		*bss += (int64_t)size;
}

/*
 * Adds up the sizes of the symbols of the table sh (functions, objects and
 * untyped symbols with a size, in a section of shdrs) by their section's
 * class into out's sym_ sizes.  0, or -1 when the table cannot be read.
 */
static int add_symbols(struct elf_sizes *out, int fd, const Elf64_Shdr *sh,
		       const Elf64_Shdr *shdrs, size_t shnum)
{
	uint64_t size = u64(sh->sh_size), i, n;
	Elf64_Sym *syms;

	if (u64(sh->sh_entsize) != sizeof(Elf64_Sym) || size % sizeof(Elf64_Sym) ||
	    size > (1ULL << 30))
		return -1;
	n = size / sizeof(Elf64_Sym);
	syms = xmalloc(size ? size : 1);
	if (read_at(fd, syms, size, (off_t)u64(sh->sh_offset))) {
		free(syms);
		return -1;
	}
	out->sym_text = out->sym_data = out->sym_bss = 0;
	for (i = 0; i < n; i++) {
		unsigned type = ELF64_ST_TYPE(syms[i].st_info);
		uint16_t shndx = u16(syms[i].st_shndx);

		if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE)
			continue;
		if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE || shndx >= shnum)
			continue;
		add_to(&out->sym_text, &out->sym_data, &out->sym_bss,
		       section_class(&shdrs[shndx]), u64(syms[i].st_size));
	}
	free(syms);
	return 0;
}

/*
 * Opens the ELF64 file at path and reads its header and section headers
 * (*shdrs, *shnum; freed by the caller).  The descriptor, or -1 with a
 * message, or -2 when it is not an ELF64 file (nothing said).
 */
static int open_elf(const char *path, Elf64_Ehdr *eh, Elf64_Shdr **shdrs, size_t *shnum)
{
	uint16_t one = 1;
	int little = *(unsigned char *)&one == 1;
	int fd;
	off_t shoff;

	*shdrs = NULL;
	*shnum = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	if (read_at(fd, eh, sizeof(*eh), 0) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    (eh->e_ident[EI_DATA] != ELFDATA2LSB && eh->e_ident[EI_DATA] != ELFDATA2MSB)) {
		close(fd);
		return -2;
	}
	swap = (eh->e_ident[EI_DATA] == ELFDATA2LSB) != little;
	shoff = (off_t)u64(eh->e_shoff);
	*shnum = u16(eh->e_shnum);
	if (u16(eh->e_shentsize) != sizeof(Elf64_Shdr) || *shnum > MAX_SECTIONS || shoff <= 0) {
		close(fd);
		return error("'%s': unexpected ELF section headers", path);
	}
	*shdrs = xcalloc(*shnum ? *shnum : 1, sizeof(**shdrs));
	if (read_at(fd, *shdrs, *shnum * sizeof(**shdrs), shoff)) {
		free(*shdrs);
		*shdrs = NULL;
		close(fd);
		return error("'%s': cannot read its %zu section headers", path, *shnum);
	}
	return fd;
}

int elf_sizes_read(struct elf_sizes *out, const char *path)
{
	const struct elf_sizes unknown = ELF_SIZES_UNKNOWN;
	Elf64_Ehdr eh;
	Elf64_Shdr *shdrs = NULL;
	int fd, ret = -1;
	size_t i, shnum;

	*out = unknown;
	fd = open_elf(path, &eh, &shdrs, &shnum);
	if (fd < 0)
		return fd == -2 ? 1 : -1;
	out->text = out->data = out->bss = 0;
	for (i = 0; i < shnum; i++)
		add_to(&out->text, &out->data, &out->bss, section_class(&shdrs[i]),
		       u64(shdrs[i].sh_size));
	for (i = 0; i < shnum; i++)
		if (u32(shdrs[i].sh_type) == SHT_SYMTAB &&
		    add_symbols(out, fd, &shdrs[i], shdrs, shnum)) {
			*out = unknown;
			error("'%s': cannot read its symbol table", path);
			goto out;
		}
	ret = 0;
out:
	free(shdrs);
	close(fd);
	return ret;
}

/* x86_64's struct exception_table_entry: int insn, fixup, data, each relative to itself. */
#define X86_EXTABLE_ENTRY 12

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int elf_extable_write(const char *path, const char *out)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *shdrs = NULL, *strs, *tab = NULL;
	char *names = NULL;
	unsigned char *data = NULL;
	uint64_t *addr = NULL, size, base;
	struct strbuf sb = STRBUF_INIT;
	size_t i, n = 0, shnum;
	int fd, ret = -1;

	fd = open_elf(path, &eh, &shdrs, &shnum);
	if (fd < 0)
		return fd == -2 ? 1 : -1;
	if (u16(eh.e_machine) != EM_X86_64 || swap) {
		ret = 1;	/* only x86's rep strings need it (the meter's rep_needs_callback) */
		goto out;
	}
	if (u16(eh.e_shstrndx) >= shnum) {
		error("'%s': no section names", path);
		goto out;
	}
	strs = &shdrs[u16(eh.e_shstrndx)];
	if (u64(strs->sh_size) > (1U << 20)) {
		error("'%s': a section name table of %llu bytes", path,
		      (unsigned long long)u64(strs->sh_size));
		goto out;
	}
	names = xcalloc(u64(strs->sh_size) + 1, 1);
	if (read_at(fd, names, u64(strs->sh_size), (off_t)u64(strs->sh_offset))) {
		error("'%s': cannot read its section names", path);
		goto out;
	}
	for (i = 0; i < shnum; i++)
		if (u32(shdrs[i].sh_name) < u64(strs->sh_size) &&
		    !strcmp(names + u32(shdrs[i].sh_name), "__ex_table"))
			tab = &shdrs[i];
	if (!tab) {
		ret = 1;
		goto out;
	}
	size = u64(tab->sh_size);
	base = u64(tab->sh_addr);
	if (size % X86_EXTABLE_ENTRY || size > (1U << 26) || u32(tab->sh_type) == SHT_NOBITS) {
		error("'%s': an __ex_table of %llu bytes, not of %d-byte entries", path,
		      (unsigned long long)size, X86_EXTABLE_ENTRY);
		goto out;
	}
	data = xmalloc(size ? size : 1);
	if (read_at(fd, data, size, (off_t)u64(tab->sh_offset))) {
		error("'%s': cannot read its __ex_table", path);
		goto out;
	}
	addr = xcalloc(size / X86_EXTABLE_ENTRY + 1, sizeof(*addr));
	for (i = 0; i < size / X86_EXTABLE_ENTRY; i++) {
		int32_t rel;

		memcpy(&rel, data + i * X86_EXTABLE_ENTRY, sizeof(rel));
		addr[n++] = base + i * X86_EXTABLE_ENTRY + (uint64_t)(int64_t)rel;
	}
	qsort(addr, n, sizeof(*addr), cmp_u64);
	strbuf_addstr(&sb, METER_EXTABLE_HEADER "\n");
	for (i = 0; i < n; i++)
		if (!i || addr[i] != addr[i - 1])
			strbuf_addf(&sb, "%llx\n", (unsigned long long)addr[i]);
	ret = strbuf_write_file(&sb, out) ? -1 : 0;
out:
	strbuf_release(&sb);
	free(addr);
	free(data);
	free(names);
	free(shdrs);
	close(fd);
	return ret;
}
