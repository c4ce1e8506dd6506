/* analyze-claims.h: Kconfig's cost claims beside the measured change, per variant. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef ANALYZE_CLAIMS_H
#define ANALYZE_CLAIMS_H

#include <stddef.h>

struct analyze_model;
struct store;
struct strbuf;

/*
 * What an option's help text claims it costs (store-claims.h: "The
 * performance slowdown is ~x3."), set beside what the variant that turns it
 * on measured.  A claim belongs to each variant of kind oat or cumulative
 * (the variants that measure one option or group) that turns its symbol on,
 * requested or set by Kconfig for it, on the claim's source.
 */
struct analyze_claim {
	size_t variant;		/* index into m->variants */
	char *symbol, *location;
	char *sentence;		/* the definition's claims, in order, one after the other */
};

/* For analyze.c: fills m->claims (variants in plan order). 0, or -1 with a message. */
int analyze_claims_load(struct analyze_model *m, struct store *st);
void analyze_claims_release(struct analyze_model *m);

/*
 * The claim, appended to sb: 'KASAN_GENERIC (lib/Kconfig.kasan:68): "The
 * performance slowdown is ~x3."'
 */
void analyze_claim_describe(struct strbuf *sb, const struct analyze_claim *c);

/*
 * The change its variant measured on table t, appended to sb: "+141.2%
 * [+138.0% .. +144.5%], x2.41", and 1; 0 and nothing when the variant has
 * no comparison there (not measured, or not on t's source).
 */
int analyze_claim_measured(struct strbuf *sb, const struct analyze_model *m,
			   const struct analyze_claim *c, size_t t);

/*
 * Why a claim has no measurement on any table, appended to sb: "no-op:
 * <why>" or "build failed: <why>" for a variant that is not measured, else
 * "not measured yet".
 */
void analyze_claim_unmeasured(struct strbuf *sb, const struct analyze_model *m,
			      const struct analyze_claim *c);

#endif
