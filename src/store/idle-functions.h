/* idle-functions.h: the idle loop's own kernel functions, for the meter (plugin and host alike). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef IDLE_FUNCTIONS_H
#define IDLE_FUNCTIONS_H

/*
 * Under icount with sleep=off a halted vCPU executes nothing, so what the
 * guest does while idle is the idle loop itself: these functions (base
 * names, profile_base_len()), of x86 and arm64.  Their instructions are the
 * meter's idle bucket, which "busy" leaves out: how often a CPU goes idle
 * follows the timer's phase, not the work.  What the loop calls (the tick,
 * RCU) is counted as work.  The plugin (plugin/load.c, output.c) includes this
 * too: one list.
 */
#define KCP_IDLE_FUNCTIONS \
	"do_idle", "cpu_startup_entry", "cpuidle_idle_call", "default_idle_call", \
	"default_idle", "cpu_idle_poll", "arch_cpu_idle", "arch_cpu_idle_enter", \
	"arch_cpu_idle_exit", "arch_cpu_idle_prepare", "native_safe_halt", \
	"mwait_idle", "amd_e400_idle", "acpi_safe_halt", "acpi_idle_do_entry", \
	"acpi_idle_enter", "cpu_do_idle", "cpuidle_enter", "cpuidle_enter_state"

/*
 * The names the meter gives what is not a kernel function, in its
 * profiles: brackets, which no symbol has.
 */
#define KCP_BUCKET_BEFORE_KERNEL "[before-kernel]"
#define KCP_BUCKET_USER "[user]"
#define KCP_BUCKET_KERNEL_OTHER "[kernel-other]"

#endif
