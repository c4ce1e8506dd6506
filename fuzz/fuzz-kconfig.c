/* fuzz-kconfig.c: libFuzzer target for the .config parser, writer, diff and merge. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void silence(const char *kind, const char *msg, void *cb_data)
{
}

/* Invariants are checked with abort() so that libFuzzer records the input. */
#define require(ok) \
	do { \
		if (!(ok)) { \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #ok); \
			abort(); \
		} \
	} while (0)

static int same_symbols(const struct kconfig *a, const struct kconfig *b)
{
	size_t ia = 0, ib = 0;
	const char *na, *va, *nb, *vb;

	if (kconfig_count(a) != kconfig_count(b))
		return 0;
	while (kconfig_next(a, &ia, &na, &va)) {
		if (!kconfig_next(b, &ib, &nb, &vb) || strcmp(na, nb) || strcmp(va, vb))
			return 0;
		if (strcmp(kconfig_get(b, na), va))
			return 0;
	}
	return !kconfig_next(b, &ib, &nb, &vb);
}

static void exercise(const char *buf, size_t size, unsigned flags)
{
	struct kconfig *kc = kconfig_new(), *again = kconfig_new(), *empty = kconfig_new();
	struct kconfig *base = NULL;
	struct kconfig_changes ch = KCONFIG_CHANGES_INIT;
	struct strbuf out = STRBUF_INIT, out2 = STRBUF_INIT, diff = STRBUF_INIT;
	char hash[SHA256_HEX_SIZE], hash2[SHA256_HEX_SIZE];
	const char *name, *value;
	size_t iter = 0, n = 0;

	if (kconfig_parse(kc, "fuzz", buf, size, flags))
		goto out;

	/* Written text parses as a strict .config to the same symbols... */
	kconfig_write(kc, &out);
	if (!flags)
		require(out.len == size && !memcmp(out.buf, buf, size));
	require(!kconfig_parse(again, "again", out.buf, out.len, 0));
	require(same_symbols(kc, again));
	/* ...and is written back unchanged. */
	kconfig_write(again, &out2);
	require(out2.len == out.len && !memcmp(out2.buf, out.buf, out.len));
	kconfig_hash(kc, hash);
	kconfig_hash(again, hash2);
	require(!strcmp(hash, hash2));

	while (kconfig_next(kc, &iter, &name, &value)) {
		require(kconfig_value_type(value) != KCONFIG_VALUE_INVALID);
		n++;
	}
	require(n == kconfig_count(kc));

	/* Diffs against an empty config list every symbol once. */
	kconfig_diff_list(&ch, kc, empty);
	require(ch.nr == n && ch.removed == n);
	kconfig_changes_release(&ch);
	kconfig_diff_list(&ch, empty, kc);
	require(ch.nr == n && ch.added == n);
	kconfig_changes_release(&ch);
	kconfig_diff(kc, empty, &diff, 0);
	kconfig_diff(empty, kc, &diff, 1);
	kconfig_diff(kc, again, &diff, 0);
	kconfig_diff_list(&ch, kc, again);
	require(ch.nr == 0);
	kconfig_changes_release(&ch);

	/* Merging a config into itself keeps its symbols. */
	base = kconfig_new();
	require(!kconfig_parse(base, "base", out.buf, out.len, 0));
	kconfig_merge(base, kc, "frag");
	kconfig_hash(base, hash2);
	require(!strcmp(hash, hash2));
	require(kconfig_count(base) == n);

	/* Edits keep the model consistent with its text. */
	iter = 0;
	if (kconfig_next(kc, &iter, &name, &value)) {
		char *first = xstrdup(name);

		require(!kconfig_set(base, first, "y"));
		require(!strcmp(kconfig_get(base, first), "y"));
		require(!kconfig_set(base, "FUZZ_NEW", "\"x\""));
		require(kconfig_unset(base, first) == 1);
		require(!kconfig_get(base, first));
		free(first);
	}
	strbuf_reset(&out2);
	kconfig_write(base, &out2);
	kconfig_free(again);
	again = kconfig_new();
	require(!kconfig_parse(again, "edited", out2.buf, out2.len, 0));
	require(same_symbols(base, again));
out:
	kconfig_free(kc);
	kconfig_free(again);
	kconfig_free(empty);
	kconfig_free(base);
	strbuf_release(&out);
	strbuf_release(&out2);
	strbuf_release(&diff);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kconfig *kc;
	char *list;

	set_message_sink(silence, NULL);
	exercise((const char *)data, size, 0);
	exercise((const char *)data, size, KCONFIG_LOOSE);

	/* The same bytes as an option list (up to a NUL). */
	list = xstrndup((const char *)data, size);
	kc = kconfig_new();
	if (!kconfig_parse_list(kc, "--options", list)) {
		struct strbuf out = STRBUF_INIT;
		struct kconfig *again = kconfig_new();

		kconfig_write(kc, &out);
		require(!kconfig_parse(again, "again", out.buf, out.len, 0));
		require(same_symbols(kc, again));
		kconfig_free(again);
		strbuf_release(&out);
	}
	kconfig_free(kc);
	free(list);
	return 0;
}
