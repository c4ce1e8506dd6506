/* meter.c: the phase markers kconfperf's instruction meter (plugin/load.c) watches. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "guest.h"

/*
 * The meter cannot read the guest's registers, only see which code runs:
 * each marker is a function of its own, never inlined, whose first
 * instruction is a no-op of its own bytes (the meter compares them with
 * this program's ELF, so another program at the same address is no
 * marker).  Their order is the message: begin and end pair up per
 * iteration, and the meter numbers them.
 */
#if defined(__x86_64__)
/* nopl disp32(%rax): "KCP" and the marker's number in the displacement */
#define MARK(n) __asm__ volatile(".byte 0x0f, 0x1f, 0x80, 'K', 'C', 'P', " #n ::: "memory")
#elif defined(__aarch64__)
/* a move to the zero register */
#define MARK(n) __asm__ volatile("movz xzr, #(0x4b50 + " #n ")" ::: "memory")
#else
#define MARK(n) __asm__ volatile("" ::: "memory")
#endif

void __attribute__((__noinline__)) kcp_meter_begin(void)
{
	MARK(1);
}

void __attribute__((__noinline__)) kcp_meter_end(void)
{
	MARK(2);
}

void __attribute__((__noinline__)) kcp_meter_poweroff(void)
{
	MARK(3);
}
