/* plan-claims.c: the cost claims of the help texts of what the plan's variants turn on. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig-help.h"
#include "kconfig/kconfig.h"
#include "plan/plan-claims.h"
#include "plan/plan.h"
#include "store/store-claims.h"
#include "util/strvec.h"
#include "util/wrapper.h"

static int on(const char *value)
{
	return value && (!strcmp(value, "y") || !strcmp(value, "m"));
}

static int seen(const struct strvec *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], name))
			return 1;
	return 0;
}

/* The symbols variant v turns on, appended to syms when new. */
static void turned_on(struct strvec *syms, const struct plan *p, const struct plan_variant *v)
{
	const struct kconfig *sets[] = { v->requested, v->effective };
	const char *name, *value;
	size_t k, iter;

	for (k = 0; k < ARRAY_SIZE(sets); k++) {
		iter = 0;
		while (sets[k] && kconfig_next(sets[k], &iter, &name, &value))
			if (on(value) && !on(kconfig_get(p->baseline, name)) && !seen(syms, name))
				strvec_push(syms, name);
	}
}

int plan_claims(struct store_claim **out, size_t *nr, size_t *alloc, const struct plan *p,
		const char *label)
{
	struct strvec syms = STRVEC_INIT, claims = STRVEC_INIT;
	size_t i, k;
	int ret = 0;

	for (i = 0; i < p->nr_variants; i++)
		turned_on(&syms, p, &p->variants[i]);
	for (i = 0; i < syms.nr && !ret; i++) {
		strvec_clear(&claims);
		if (kconfig_index_claims(&claims, p->index, syms.v[i])) {
			ret = -1;
			break;
		}
		for (k = 0; k < claims.nr; k++) {
			const char *tab = strchr(claims.v[k], '\t');
			struct store_claim *c;

			if (!tab)
				continue;
			ALLOC_GROW(*out, *nr + 1, *alloc);
			c = &(*out)[(*nr)++];
			c->source = xstrdup(label ? label : "");
			c->symbol = xstrdup(syms.v[i]);
			c->location = xstrndup(claims.v[k], (size_t)(tab - claims.v[k]));
			c->sentence = xstrdup(tab + 1);
		}
	}
	strvec_clear(&syms);
	strvec_clear(&claims);
	return ret;
}
