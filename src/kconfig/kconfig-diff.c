/* kconfig-diff.c: what two .config files set differently, a fragment merged into a base, and a config's hash. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kconfig/kconfig-internal.h"
#include "kconfig/kconfig.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/wrapper.h"

static int cmp_sym(const void *a, const void *b)
{
	const struct kconfig_sym *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* The present symbols sorted by name; the caller frees the array. */
static const struct kconfig_sym **sorted_syms(const struct kconfig *kc)
{
	const struct kconfig_sym **v = xmalloc((kc->count + 1) * sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < kc->nr_syms; i++)
		if (kc->syms[i].value)
			v[n++] = &kc->syms[i];
	qsort(v, n, sizeof(*v), cmp_sym);
	return v;
}

/* One difference, borrowed from the two kconfigs. */
struct sym_change {
	const struct kconfig_sym *old, *new;	/* NULL when added, removed */
};

static int cmp_change(const void *x, const void *y)
{
	const struct sym_change *a = x, *b = y;

	return strcmp(a->old ? a->old->name : a->new->name,
		      b->old ? b->old->name : b->new->name);
}

/* Is symbol s of `from` present in `to`?  Returns to's symbol, or NULL. */
static const struct kconfig_sym *counterpart(const struct kconfig *to,
					     const struct kconfig_sym *s)
{
	uint32_t slot;

	if (!to->table_size)
		return NULL;
	slot = to->table[kconfig_find_slot(to, s->name, s->name_len, s->hash)];
	return slot && to->syms[slot - 1].value ? &to->syms[slot - 1] : NULL;
}

/*
 * The differences from a to b in diffconfig's order: removed, then changed,
 * then added, each sorted by name.  Returns the number; the caller frees *out.
 * Only the changes are sorted: two 10,000-symbol configs differ in few.
 */
static size_t collect_changes(struct sym_change **out,
			      const struct kconfig *a, const struct kconfig *b)
{
	struct sym_change *v = xmalloc((a->count + b->count + 1) * sizeof(*v));
	size_t nr = 0, removed, added, i;

	for (i = 0; i < a->nr_syms; i++)
		if (a->syms[i].value && !counterpart(b, &a->syms[i])) {
			v[nr].old = &a->syms[i];
			v[nr++].new = NULL;
		}
	removed = nr;
	for (i = 0; i < a->nr_syms; i++) {
		const struct kconfig_sym *other;

		if (!a->syms[i].value)
			continue;
		other = counterpart(b, &a->syms[i]);
		if (other && strcmp(a->syms[i].value, other->value)) {
			v[nr].old = &a->syms[i];
			v[nr++].new = other;
		}
	}
	qsort(v, removed, sizeof(*v), cmp_change);
	qsort(v + removed, nr - removed, sizeof(*v), cmp_change);
	added = nr;
	for (i = 0; i < b->nr_syms; i++)
		if (b->syms[i].value && !counterpart(a, &b->syms[i])) {
			v[nr].old = NULL;
			v[nr++].new = &b->syms[i];
		}
	qsort(v + added, nr - added, sizeof(*v), cmp_change);
	*out = v;
	return nr;
}

void kconfig_diff_list(struct kconfig_changes *out,
		       const struct kconfig *a, const struct kconfig *b)
{
	struct sym_change *v;
	size_t nr = collect_changes(&v, a, b), i;

	out->v = xcalloc(nr + 1, sizeof(*out->v));
	for (i = 0; i < nr; i++) {
		struct kconfig_change *ch = &out->v[out->nr++];

		ch->name = xstrdup(v[i].old ? v[i].old->name : v[i].new->name);
		ch->old_value = v[i].old ? xstrdup(v[i].old->value) : NULL;
		ch->new_value = v[i].new ? xstrdup(v[i].new->value) : NULL;
		if (!v[i].new)
			out->removed++;
		else if (!v[i].old)
			out->added++;
		else
			out->changed++;
	}
	free(v);
}

void kconfig_changes_release(struct kconfig_changes *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->v[i].name);
		free(c->v[i].old_value);
		free(c->v[i].new_value);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

void kconfig_diff(const struct kconfig *a, const struct kconfig *b,
		  struct strbuf *out, int merge_style)
{
	struct sym_change *v;
	size_t nr = collect_changes(&v, a, b), i;

	for (i = 0; i < nr; i++) {
		const struct kconfig_sym *old = v[i].old, *new = v[i].new;

		if (merge_style) {
			if (!new)
				continue;
			if (!strcmp(new->value, "n")) {
				strbuf_addstr(out, "# CONFIG_");
				strbuf_add(out, new->name, new->name_len);
				strbuf_addstr(out, " is not set\n");
			} else {
				strbuf_addstr(out, "CONFIG_");
				strbuf_add(out, new->name, new->name_len);
				strbuf_addch(out, '=');
				strbuf_addstr(out, new->value);
				strbuf_addch(out, '\n');
			}
			continue;
		}
		strbuf_addch(out, !new ? '-' : !old ? '+' : ' ');
		strbuf_addstr(out, old ? old->name : new->name);
		strbuf_addch(out, ' ');
		strbuf_addstr(out, old ? old->value : new->value);
		if (old && new) {
			strbuf_addstr(out, " -> ");
			strbuf_addstr(out, new->value);
		}
		strbuf_addch(out, '\n');
	}
	free(v);
}

/* The length of a line without the '\r' of a CRLF line end. */
static size_t len_without_cr(const char *text)
{
	size_t len = strlen(text);

	while (len && text[len - 1] == '\r')
		len--;
	return len;
}

/* The lines of kc defining symbol idx, joined by ' ' (as merge_config.sh's echo shows them). */
static void definition_lines(const struct kconfig *kc, size_t idx, struct strbuf *out)
{
	const struct kconfig_sym *s = &kc->syms[idx];
	size_t i;

	for (i = s->ndefs == 1 ? s->line : 0; i < kc->nr_lines; i++) {
		const char *text = kc->lines[i].text;

		if (kc->lines[i].sym != idx)
			continue;
		if (out->len)
			strbuf_addch(out, ' ');
		strbuf_add(out, text, len_without_cr(text));
		if (s->ndefs == 1)
			break;
	}
}

int kconfig_merge(struct kconfig *base, const struct kconfig *frag, const char *fragname)
{
	struct strbuf prev = STRBUF_INIT, new = STRBUF_INIT;
	int redefined = 0;
	size_t i;

	for (i = 0; i < frag->nr_lines; i++) {
		size_t fidx = frag->lines[i].sym, bidx;
		const char *name;

		if (fidx == NO_SYM)
			continue;
		name = frag->syms[fidx].name;
		bidx = kconfig_sym_index(base, name, strlen(name));
		if (bidx == NO_SYM || !base->syms[bidx].value)
			continue;	/* not in base, or already handled */
		strbuf_reset(&prev);
		strbuf_reset(&new);
		definition_lines(base, bidx, &prev);
		definition_lines(frag, fidx, &new);
		if (strcmp(prev.buf, new.buf)) {
			warning("value of CONFIG_%s is redefined by fragment %s: previous value '%s', new value '%s'",
				name, fragname, prev.buf, new.buf);
			redefined++;
		}
		kconfig_remove_definitions(base, bidx, NO_SYM);
	}
	/* merge_config.sh's `echo >> $TMP_FILE`. */
	if (base->missing_newline)
		base->missing_newline = 0;
	else
		kconfig_add_line(base, xstrdup(""), NO_SYM);

	for (i = 0; i < frag->nr_lines; i++) {
		const struct kconfig_line *l = &frag->lines[i];
		const struct kconfig_sym *s;
		struct parsed_line pl;

		if (!l->text)
			continue;
		if (l->sym == NO_SYM) {
			kconfig_add_line(base, xstrndup(l->text, len_without_cr(l->text)), NO_SYM);
			continue;
		}
		/*
		 * Lines are appended in order, so the last definition leaves
		 * frag's value; earlier ones only need to be counted.
		 */
		s = &frag->syms[l->sym];
		pl.name = s->name;
		pl.name_len = strlen(s->name);
		pl.value = s->value;
		pl.value_len = strlen(s->value);
		kconfig_define(base, &pl, xstrndup(l->text, len_without_cr(l->text)), NULL);
	}
	if (kconfig_last_live_line(frag) != NO_SYM)
		base->missing_newline = frag->missing_newline;
	strbuf_release(&prev);
	strbuf_release(&new);
	return redefined;
}

void kconfig_hash(const struct kconfig *kc, char out[SHA256_HEX_SIZE])
{
	const struct kconfig_sym **v = sorted_syms(kc);
	struct strbuf line = STRBUF_INIT;
	struct sha256 c;
	size_t i;

	sha256_init(&c);
	for (i = 0; i < kc->count; i++) {
		strbuf_reset(&line);
		strbuf_addf(&line, "CONFIG_%s=", v[i]->name);
		if (v[i]->value[0] == '"') {
			struct strbuf s = STRBUF_INIT;

			kconfig_string_value(&s, v[i]->value);
			kconfig_quote_string(&line, s.buf);
			strbuf_release(&s);
		} else {
			strbuf_addstr(&line, v[i]->value);
		}
		strbuf_addch(&line, '\n');
		sha256_update(&c, line.buf, line.len);
	}
	sha256_final_hex(&c, out);
	strbuf_release(&line);
	free(v);
}
