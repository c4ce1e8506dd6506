/* elf-sizes.h: text, data and bss of an ELF file (vmlinux), as size(1) and bloat-o-meter add them up. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ELF_SIZES_H
#define ELF_SIZES_H

#include <stdint.h>

/*
 * The sizes of a kernel's image by section, as binutils' size(1) gives
 * them in its default (Berkeley) format: of the sections that are loaded
 * (SHF_ALLOC), text is the read-only ones (code and read-only data), data
 * the writable ones with contents, bss those without (SHT_NOBITS).
 * bzImage is compressed and page-granular, so a leaf option often leaves it
 * the same size to the byte.  The sections are padded too: the kernel's
 * linker script aligns what follows them (x86's text to a page), so a
 * function that grows by a few bytes usually leaves them the same.
 *
 * sym_text, sym_data and sym_bss add up the symbols instead, as the
 * kernel's scripts/bloat-o-meter compares two images (nm --size): every
 * function and object with a size, by the class of the section it is in,
 * alignment padding left out.  They show what a leaf option added.
 */
struct elf_sizes {
	int64_t text, data, bss;
	int64_t sym_text, sym_data, sym_bss;
};
#define ELF_SIZES_UNKNOWN { -1, -1, -1, -1, -1, -1 }

/*
 * Reads the section headers and the symbol table of the 64-bit ELF file at
 * path (either byte order: x86_64 and arm64 kernels are ELF64) into *out;
 * a file without a symbol table (stripped) leaves the sym_ sizes -1.  Returns 0; 1 when
 * the file is not such an ELF file (a fake kernel's vmlinux), *out unknown
 * and nothing said; -1 when it cannot be read or its headers are
 * inconsistent, with a message.
 */
int elf_sizes_read(struct elf_sizes *out, const char *path);

/*
 * Writes to out (replaced whole) the addresses of the instructions in the
 * exception table (__ex_table) of the x86_64 vmlinux at path: the kernel
 * instructions allowed to fault once it runs (copies from and to user
 * space), which the meter watches for faults (docs/meter.md).  The file
 * is store/meter-file.h's METER_EXTABLE_HEADER ("kcp-extable 1"), then one
 * address a line, in hex, ascending.
 * Returns 0; 1 when there is nothing to write (not an x86_64 ELF64 file,
 * or no __ex_table), nothing said; -1 with a message.
 */
int elf_extable_write(const char *path, const char *out);

#endif
