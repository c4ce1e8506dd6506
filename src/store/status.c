/* status.c: the names of variant, build and run statuses. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "store/status.h"
#include "util/wrapper.h"

static const char *const variant_names[] = {
	[VARIANT_OK] = "ok",
	[VARIANT_PARTIAL] = "partial",
	[VARIANT_NO_OP] = "no-op",
	[VARIANT_SAME_AS] = "same-as",
};

static const char *const build_names[] = {
	[BUILD_OK] = "ok",
	[BUILD_FAILED] = "failed",
};

static const char *const run_names[] = {
	[RUN_OK] = "ok",
	[RUN_TIMEOUT] = "timeout",
	[RUN_PANIC] = "panic",
	[RUN_GUEST_ERROR] = "guest-error",
	[RUN_MALFORMED] = "malformed",
	[RUN_NO_DONE] = "no-done",
	[RUN_START_FAILED] = "start-failed",
	[RUN_EXIT_FAILED] = "exit-failed",
};

_Static_assert(ARRAY_SIZE(variant_names) == VARIANT_STATUS_NR, "a variant status without a name");
_Static_assert(ARRAY_SIZE(build_names) == BUILD_STATUS_NR, "a build status without a name");
_Static_assert(ARRAY_SIZE(run_names) == RUN_STATUS_NR, "a run status without a name");

static const char *name_of(const char *const *names, size_t nr, int s)
{
	return s >= 0 && (size_t)s < nr ? names[s] : NULL;
}

static int parse(const char *const *names, size_t nr, const char *name)
{
	size_t i;

	for (i = 0; name && i < nr; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

const char *variant_status_name(enum variant_status s)
{
	return name_of(variant_names, ARRAY_SIZE(variant_names), (int)s);
}

int variant_status_parse(enum variant_status *out, const char *name)
{
	int s = parse(variant_names, ARRAY_SIZE(variant_names), name);

	if (s < 0)
		return -1;
	*out = (enum variant_status)s;
	return 0;
}

int variant_is_measured(enum variant_status s)
{
	return s == VARIANT_OK || s == VARIANT_PARTIAL;
}

const char *build_status_name(enum build_status s)
{
	return name_of(build_names, ARRAY_SIZE(build_names), (int)s);
}

int build_status_parse(enum build_status *out, const char *name)
{
	int s = parse(build_names, ARRAY_SIZE(build_names), name);

	if (s < 0)
		return -1;
	*out = (enum build_status)s;
	return 0;
}

const char *run_status_name(enum run_status s)
{
	return name_of(run_names, ARRAY_SIZE(run_names), (int)s);
}

int run_status_parse(enum run_status *out, const char *name)
{
	int s = parse(run_names, ARRAY_SIZE(run_names), name);

	if (s < 0)
		return -1;
	*out = (enum run_status)s;
	return 0;
}
