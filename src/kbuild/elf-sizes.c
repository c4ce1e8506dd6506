/* elf-sizes.c: text, data and bss of an ELF file, from its section headers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "kbuild/elf-sizes.h"
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

int elf_sizes_read(struct elf_sizes *out, const char *path)
{
	const struct elf_sizes unknown = ELF_SIZES_UNKNOWN;
	Elf64_Ehdr eh;
	Elf64_Shdr *shdrs = NULL;
	uint16_t one = 1;
	int little = *(unsigned char *)&one == 1;
	int fd, ret = -1;
	size_t i, shnum;
	off_t shoff;

	*out = unknown;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	if (read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    (eh.e_ident[EI_DATA] != ELFDATA2LSB && eh.e_ident[EI_DATA] != ELFDATA2MSB)) {
		ret = 1;	/* not an ELF64 file */
		goto out;
	}
	swap = (eh.e_ident[EI_DATA] == ELFDATA2LSB) != little;
	shoff = (off_t)u64(eh.e_shoff);
	shnum = u16(eh.e_shnum);
	if (u16(eh.e_shentsize) != sizeof(Elf64_Shdr) || shnum > MAX_SECTIONS || shoff <= 0) {
		error("'%s': unexpected ELF section headers", path);
		goto out;
	}
	shdrs = xcalloc(shnum ? shnum : 1, sizeof(*shdrs));
	if (read_at(fd, shdrs, shnum * sizeof(*shdrs), shoff)) {
		error("'%s': cannot read its %zu section headers", path, shnum);
		goto out;
	}
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
