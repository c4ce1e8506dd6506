/* finding-kind.c: the names of the kinds of kernel console findings. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "store/finding-kind.h"
#include "util/wrapper.h"

static const char *const names[] = {
	[FINDING_LOCKDEP] = "lockdep",
	[FINDING_KASAN] = "kasan",
	[FINDING_KFENCE] = "kfence",
	[FINDING_KMEMLEAK] = "kmemleak",
	[FINDING_UBSAN] = "ubsan",
	[FINDING_WARNING] = "warning",
	[FINDING_ATOMIC_SLEEP] = "atomic-sleep",
	[FINDING_BUG] = "bug",
	[FINDING_OOPS] = "oops",
	[FINDING_RCU_STALL] = "rcu-stall",
	[FINDING_HUNG_TASK] = "hung-task",
	[FINDING_SOFT_LOCKUP] = "soft-lockup",
	[FINDING_HARD_LOCKUP] = "hard-lockup",
	[FINDING_PANIC] = "panic",
};

_Static_assert(ARRAY_SIZE(names) == FINDING_KIND_NR, "a finding kind without a name");

const char *finding_kind_name(enum finding_kind k)
{
	return (int)k >= 0 && (size_t)k < ARRAY_SIZE(names) ? names[k] : NULL;
}

int finding_kind_parse(enum finding_kind *out, const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], name)) {
			*out = (enum finding_kind)i;
			return 0;
		}
	return -1;
}
