/* decode-x86.c: the meter's x86 decoder: what an instruction's bytes say of how it may stop. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "kcp-meter.h"

/*
 * x86_64's kernel is linked at __START_KERNEL_map + its physical address;
 * without KASLR it runs there, and its first instructions (startup_64)
 * run at the physical address itself.
 */
#define X86_64_START_KERNEL_MAP 0xffffffff80000000ULL
#define X86_PAGE_SIZE 4096
#define X86_MAX_INSN 15

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

const struct isa isa_x86_64 = {
	.target = "x86_64",
	.cannot_stop = x86_cannot_stop,
	.stack_only = x86_stack_only,
	.rep_string = is_rep_string,
	.phys_offset = X86_64_START_KERNEL_MAP,
	.max_insn = X86_MAX_INSN,
	.page_size = X86_PAGE_SIZE,
};
