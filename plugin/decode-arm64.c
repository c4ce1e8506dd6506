/* decode-arm64.c: the meter's arm64 (A64) decoder: what an instruction's bytes say of how it may stop. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "kcp-meter.h"

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

const struct isa isa_aarch64 = {
	.target = "aarch64",
	.cannot_stop = a64_cannot_stop,
};
