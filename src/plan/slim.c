/* slim.c: --slim: a distribution's config cut to what kconfperf's guests load. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "kconfig/kconfig.h"
#include "plan/slim.h"
#include "util/strvec.h"
#include "util/usage.h"

int slim_modules(struct kconfig *kc, const struct strvec *keep, struct strvec *removed)
{
	struct strvec off = STRVEC_INIT;
	size_t iter = 0, i;
	const char *name, *value;
	int n;

	/* Collect first: setting a value while iterating could move the entries. */
	while (kconfig_next(kc, &iter, &name, &value))
		if (!strcmp(value, "m") && strvec_find(keep, name) < 0)
			strvec_push(&off, name);
	for (i = 0; i < off.nr; i++) {
		if (kconfig_set(kc, off.v[i], "n"))
			BUG("cannot set CONFIG_%s=n", off.v[i]);
		strvec_push(removed, off.v[i]);
	}
	n = (int)off.nr;
	strvec_clear(&off);
	return n;
}
