/* objects-index.c: which object holds each of a kernel's functions, and which CONFIG symbols each object depends on. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "kbuild/objects-index.h"
#include "store/profile.h"
#include "util/run-command.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "util/usage.h"
#include "util/wrapper.h"

#define INDEX_HEADER "kcp-objects 1"
/* A line of the index, or of a Makefile joined over its continuations. */
#define LINE_MAX_BYTES (1 << 20)

/* ---- writing ---------------------------------------------------------- */

/* One object as the writer collects it. */
struct wobject {
	char *path;
	struct strvec funcs;
};

/* "CONFIG_FOO" or "FOO" -> "FOO" */
static const char *bare(const char *sym)
{
	const char *v;

	return skip_prefix(sym, "CONFIG_", &v) ? v : sym;
}

/*
 * The CONFIG symbols a .cmd file lists as include/config/SYM, in the
 * order fixdep wrote them, into out.
 */
static void read_deps(struct strvec *out, const char *cmd_path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	/* an object kbuild did not make (an assembler file's may lack one) */
	if (access(cmd_path, R_OK) || strbuf_read_file_max(&sb, cmd_path, 64 << 20) < 0) {
		strbuf_release(&sb);
		return;
	}
	for (p = sb.buf; (p = strstr(p, "include/config/")); ) {
		size_t n;

		p += strlen("include/config/");
		n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		if (n) {
			char *sym = xstrndup(p, n);

			strvec_push_unique(out, sym);
			free(sym);
		}
		p += n;
	}
	strbuf_release(&sb);
}

/* A directory's Makefile read once: its lines joined, with the symbols of the ifs around each. */
struct mkfile {
	char *dir;			/* relative to srctree, "" for the top */
	struct strvec lines;		/* "SYM SYM|assignment" */
};

/*
 * The CONFIG_ symbols an "ifdef CONFIG_X", "ifeq ($(CONFIG_X),y)" or
 * "ifneq ($(CONFIG_X),)" line names, appended to out (space separated).
 */
static void if_symbols(struct strbuf *out, const char *line)
{
	const char *p;

	for (p = line; (p = strstr(p, "CONFIG_")); ) {
		size_t n;

		p += strlen("CONFIG_");
		n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (n)
			strbuf_addf(out, "%s%.*s", out->len ? " " : "", (int)n, p);
		p += n;
	}
}

static int is_if(const char *s)
{
	return starts_with(s, "ifdef") || starts_with(s, "ifndef") || starts_with(s, "ifeq") ||
	       starts_with(s, "ifneq");
}

/*
 * Reads srctree/dir/Kbuild or Makefile: each assignment line (its
 * continuations joined) as "IFSYMS|LINE", where IFSYMS are the symbols
 * of the conditionals it sits in.
 */
static void mkfile_read(struct mkfile *mk, const char *srctree, const char *dir)
{
	struct strvec stack = STRVEC_INIT;	/* the symbols of each open if */
	struct strbuf line = STRBUF_INIT, joined = STRBUF_INIT, syms = STRBUF_INIT;
	char *path;
	FILE *fp;

	mk->dir = xstrdup(dir);
	strvec_init(&mk->lines);
	path = xstrfmt("%s/%s%sKbuild", srctree, dir, *dir ? "/" : "");
	fp = fopen(path, "r");
	if (!fp) {
		free(path);
		path = xstrfmt("%s/%s%sMakefile", srctree, dir, *dir ? "/" : "");
		fp = fopen(path, "r");
	}
	free(path);
	if (!fp)
		return;
	while (strbuf_getline(&line, fp) != EOF) {
		const char *s;

		strbuf_addbuf(&joined, &line);
		strbuf_reset(&line);
		if (joined.len && joined.buf[joined.len - 1] == '\\') {
			joined.buf[joined.len - 1] = ' ';
			if (joined.len < LINE_MAX_BYTES)
				continue;
		}
		for (s = joined.buf; isspace((unsigned char)*s); s++)
			;
		if (*s == '#') {
			/* a comment */
		} else if (is_if(s)) {
			strbuf_reset(&syms);
			if_symbols(&syms, s);
			strvec_push(&stack, syms.buf);
		} else if (starts_with(s, "endif")) {
			if (stack.nr)
				strvec_pop(&stack);
		} else if (strchr(s, '=')) {
			struct strbuf entry = STRBUF_INIT;

			for (size_t i = 0; i < stack.nr; i++)
				if (*stack.v[i])
					strbuf_addf(&entry, "%s%s", entry.len ? " " : "", stack.v[i]);
			strbuf_addf(&entry, "|%s", s);
			strvec_push(&mk->lines, entry.buf);
			strbuf_release(&entry);
		}
		strbuf_reset(&joined);
	}
	fclose(fp);
	strvec_clear(&stack);
	strbuf_release(&line);
	strbuf_release(&joined);
	strbuf_release(&syms);
}

static void mkfile_release(struct mkfile *mk)
{
	free(mk->dir);
	strvec_clear(&mk->lines);
}

/* Whether word (a whitespace-separated token) is in s. */
static int has_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = s; (p = strstr(p, word)); p += n)
		if ((p == s || isspace((unsigned char)p[-1]) || p[-1] == '=') &&
		    (!p[n] || isspace((unsigned char)p[n])))
			return 1;
	return 0;
}

struct gates {
	struct mkfile *files;
	size_t nr, alloc;
	const char *srctree;
};

static struct mkfile *gates_mkfile(struct gates *g, const char *dir)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		if (!strcmp(g->files[i].dir, dir))
			return &g->files[i];
	ALLOC_GROW(g->files, g->nr + 1, g->alloc);
	mkfile_read(&g->files[g->nr], g->srctree, dir);
	return &g->files[g->nr++];
}

/*
 * Adds to out the symbols that gate `name` (an object "foo.o" or a
 * directory "foo/") in directory dir: the CONFIG_SYM of each
 * PREFIX-$(CONFIG_SYM) assignment that lists it, the ifs around those,
 * and, for a composite object's part (foo-y += name), what gates foo.o.
 * depth bounds the composites followed.
 */
static void gates_in(struct gates *g, const char *dir, const char *name, struct strvec *out,
		     int depth)
{
	struct mkfile *mk = gates_mkfile(g, dir);
	size_t i;

	if (depth > 4)
		return;
	for (i = 0; i < mk->lines.nr; i++) {
		const char *entry = mk->lines.v[i], *bar = strchr(entry, '|'), *lhs = bar + 1;
		const char *eq = strchr(lhs, '='), *cfg;
		struct strvec ifs = STRVEC_INIT;
		char *prefix;
		size_t plen;

		if (!has_word(eq + 1, name))
			continue;
		{
			char *conds = xstrndup(entry, (size_t)(bar - entry));

			strvec_split(&ifs, conds, " ");
			free(conds);
		}
		for (size_t k = 0; k < ifs.nr; k++)
			if (*ifs.v[k])
				strvec_push_unique(out, ifs.v[k]);
		strvec_clear(&ifs);
		cfg = strstr(lhs, "$(CONFIG_");
		if (cfg && cfg < eq) {
			size_t n = strspn(cfg + 9, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			char *sym = xstrndup(cfg + 9, n);

			strvec_push_unique(out, sym);
			free(sym);
		}
		/* foo-y += name, foo-objs := name: name is a part of foo.o */
		plen = strcspn(lhs, "-");
		prefix = xstrndup(lhs, plen);
		if (plen && lhs[plen] == '-' && strcmp(prefix, "obj") && strcmp(prefix, "lib") &&
		    strcmp(prefix, "subdir") && strcmp(prefix, "always") && strcmp(prefix, "targets") &&
		    strcmp(prefix, "head") && strcmp(prefix, "core") && strcmp(prefix, "libs") &&
		    strcmp(prefix, "drivers")) {
			char *whole = xstrfmt("%s.o", prefix);

			if (strcmp(whole, name))
				gates_in(g, dir, whole, out, depth + 1);
			free(whole);
		}
		free(prefix);
	}
}

/* Every symbol that gates object path (dir/name.o) and each directory above it. */
static void gates_of(struct gates *g, const char *path, struct strvec *out)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	const char *name;

	if (!slash) {
		gates_in(g, "", path, out, 0);
		free(dir);
		return;
	}
	*slash = '\0';
	name = slash + 1;
	gates_in(g, dir, name, out, 0);
	/* each directory as its parent names it: obj-$(CONFIG_X) += dir/ */
	while ((slash = strrchr(dir, '/')) || *dir) {
		char *sub;

		if (slash) {
			*slash = '\0';
			sub = xstrfmt("%s/", slash + 1);
			gates_in(g, dir, sub, out, 0);
		} else {
			sub = xstrfmt("%s/", dir);
			gates_in(g, "", sub, out, 0);
			*dir = '\0';
		}
		free(sub);
	}
	free(dir);
}

static void gates_release(struct gates *g)
{
	for (size_t i = 0; i < g->nr; i++)
		mkfile_release(&g->files[i]);
	free(g->files);
}

/*
 * The archives vmlinux is linked from, relative to objtree: vmlinux.a, then
 * KBUILD_VMLINUX_LIBS as kbuild makes them (libs-y: lib/, arch/ARCH/lib/).
 */
static void archives(struct strvec *out, const char *objtree)
{
	char *lib = xstrfmt("%s/lib/lib.a", objtree);
	char *pattern = xstrfmt("%s/arch/*/lib/lib.a", objtree);
	size_t n = strlen(objtree) + 1;
	glob_t gl;

	strvec_push(out, "vmlinux.a");
	if (!access(lib, R_OK))
		strvec_push(out, "lib/lib.a");
	if (!glob(pattern, 0, NULL, &gl)) {
		for (size_t i = 0; i < gl.gl_pathc; i++)
			strvec_push(out, gl.gl_pathv[i] + n);
		globfree(&gl);
	}
	free(lib);
	free(pattern);
}

static struct wobject *wobject_of(struct wobject **objs, size_t *nr, size_t *alloc,
				  const char *path)
{
	/* nm lists an archive's members in order: the last one is the likely match */
	for (size_t i = *nr; i-- > 0; ) {
		if (!strcmp((*objs)[i].path, path))
			return &(*objs)[i];
		if (*nr - i > 4)
			break;
	}
	for (size_t i = 0; i < *nr; i++)
		if (!strcmp((*objs)[i].path, path))
			return &(*objs)[i];
	ALLOC_GROW(*objs, *nr + 1, *alloc);
	(*objs)[*nr].path = xstrdup(path);
	strvec_init(&(*objs)[*nr].funcs);
	return &(*objs)[(*nr)++];
}

/*
 * nm's "ARCHIVE:MEMBER:ADDR TYPE NAME" lines into objs: a thin archive's
 * members are named relative to the object tree, a lib.a's beside it.
 */
static int read_nm(const char *listing, const char *objtree, struct wobject **objs, size_t *nr,
		   size_t *alloc)
{
	struct strbuf line = STRBUF_INIT, path = STRBUF_INIT;
	FILE *fp = fopen(listing, "r");

	if (!fp)
		return error_errno("cannot read '%s'", listing);
	while (strbuf_getline(&line, fp) != EOF) {
		char *a = line.buf, *m = strchr(a, ':'), *rest, *sp1, *sp2, *name;
		struct wobject *o;
		size_t len;

		if (!m || !(rest = strchr(m + 1, ':')))
			goto next;
		*m++ = '\0';
		*rest++ = '\0';
		sp1 = strchr(rest, ' ');
		sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
		if (!sp2 || !sp1[1] || !strchr("tTwW", sp1[1]))
			goto next;
		name = sp2 + 1;
		strbuf_reset(&path);
		strbuf_addstr(&path, m);
		if (strcmp(a, "vmlinux.a")) {
			/* a member of dir/lib.a may be named by its base name */
			char *full = xstrfmt("%s/%s", objtree, m), *slash = strrchr(a, '/');

			if (access(full, F_OK) && slash) {
				strbuf_reset(&path);
				strbuf_addf(&path, "%.*s/%s", (int)(slash - a), a, m);
			}
			free(full);
		}
		o = wobject_of(objs, nr, alloc, path.buf);
		len = profile_base_len(name);
		name[len] = '\0';
		if (*name)
			strvec_push_unique(&o->funcs, name);
next:
		strbuf_reset(&line);
	}
	fclose(fp);
	strbuf_release(&line);
	strbuf_release(&path);
	return 0;
}

/* " SYM SYM" of v, onto sb. */
static void add_words(struct strbuf *sb, const struct strvec *v)
{
	for (size_t i = 0; i < v->nr; i++)
		strbuf_addf(sb, " %s", v->v[i]);
}

int objects_index_write(const char *objtree, const char *srctree, const char *out)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strvec ars = STRVEC_INIT, deps = STRVEC_INIT, gate = STRVEC_INIT;
	struct gates g = { 0 };
	struct wobject *objs = NULL;
	size_t nr = 0, alloc = 0, i;
	struct strbuf sb = STRBUF_INIT;
	char *vmlinux_a = xstrfmt("%s/vmlinux.a", objtree);
	char *listing = xstrfmt("%s.nm.%ld", out, (long)getpid());
	char *tmp = xstrfmt("%s.new.%ld", out, (long)getpid());
	char *src = srctree ? xstrdup(srctree) : xstrfmt("%s/source", objtree);
	gzFile gz = NULL;
	int ret = -1;

	if (access(vmlinux_a, R_OK)) {
		ret = 1;
		goto out;
	}
	archives(&ars, objtree);
	strvec_pushv(&cp.args, (const char *[]){ "nm", "--defined-only", "-A", NULL });
	strvec_pushv(&cp.args, ars.v);
	cp.dir = objtree;
	cp.in.mode = CHILD_IO_NULL;
	cp.out.mode = CHILD_IO_FILE;
	cp.out.path = listing;
	cp.err.mode = CHILD_IO_NULL;
	if (run_command(&cp)) {
		strbuf_reset(&sb);
		child_process_describe(&sb, &cp);
		error("nm on '%s' %s", vmlinux_a, sb.buf);
		goto out;
	}
	if (read_nm(listing, objtree, &objs, &nr, &alloc))
		goto out;
	g.srctree = src;
	gz = gzopen(tmp, "wb6");
	if (!gz) {
		error_errno("cannot write '%s'", tmp);
		goto out;
	}
	gzprintf(gz, "%s\n", INDEX_HEADER);
	for (i = 0; i < nr; i++) {
		const char *path = objs[i].path, *slash = strrchr(path, '/');
		char *cmd = slash ? xstrfmt("%s/%.*s/.%s.cmd", objtree, (int)(slash - path), path,
					    slash + 1) :
			    xstrfmt("%s/.%s.cmd", objtree, path);

		strvec_clear(&deps);
		strvec_clear(&gate);
		read_deps(&deps, cmd);
		free(cmd);
		gates_of(&g, path, &gate);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "o %s\n", path);
		if (gate.nr) {
			strbuf_addch(&sb, 'g');
			add_words(&sb, &gate);
			strbuf_addch(&sb, '\n');
		}
		if (deps.nr) {
			strbuf_addch(&sb, 'd');
			add_words(&sb, &deps);
			strbuf_addch(&sb, '\n');
		}
		if (objs[i].funcs.nr) {
			strbuf_addch(&sb, 'f');
			add_words(&sb, &objs[i].funcs);
			strbuf_addch(&sb, '\n');
		}
		if (gzwrite(gz, sb.buf, (unsigned)sb.len) != (int)sb.len) {
			error("cannot write '%s'", tmp);
			goto out;
		}
	}
	if (gzclose(gz) != Z_OK) {
		gz = NULL;
		error("cannot write '%s'", tmp);
		goto out;
	}
	gz = NULL;
	if (rename(tmp, out)) {
		error_errno("cannot rename '%s' to '%s'", tmp, out);
		goto out;
	}
	ret = 0;
out:
	if (gz)
		gzclose(gz);
	if (ret)
		unlink(tmp);
	unlink(listing);
	for (i = 0; i < nr; i++) {
		free(objs[i].path);
		strvec_clear(&objs[i].funcs);
	}
	free(objs);
	gates_release(&g);
	child_process_release(&cp);
	strvec_clear(&ars);
	strvec_clear(&deps);
	strvec_clear(&gate);
	strbuf_release(&sb);
	free(vmlinux_a);
	free(listing);
	free(tmp);
	free(src);
	return ret;
}

/* ---- reading ---------------------------------------------------------- */

/* An open-addressed table of strings to ids. */
struct names {
	char **v;		/* id -> name */
	size_t nr, alloc;
	uint32_t *slot;		/* hash -> id + 1, 0 empty */
	size_t nr_slots;
};

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void names_grow(struct names *n)
{
	size_t size = n->nr_slots ? n->nr_slots * 2 : 1024, i;

	free(n->slot);
	n->slot = xcalloc(size, sizeof(*n->slot));
	n->nr_slots = size;
	for (i = 0; i < n->nr; i++) {
		size_t h = hash_str(n->v[i]) & (size - 1);

		while (n->slot[h])
			h = (h + 1) & (size - 1);
		n->slot[h] = (uint32_t)i + 1;
	}
}

/* The id of name, or (add) a new one; -1 when absent and not added. */
static long names_id(struct names *n, const char *name, int add)
{
	size_t h;

	if (!n->nr_slots) {
		if (!add)
			return -1;
		names_grow(n);
	}
	for (h = hash_str(name) & (n->nr_slots - 1); n->slot[h]; h = (h + 1) & (n->nr_slots - 1))
		if (!strcmp(n->v[n->slot[h] - 1], name))
			return (long)n->slot[h] - 1;
	if (!add)
		return -1;
	ALLOC_GROW(n->v, n->nr + 1, n->alloc);
	n->v[n->nr] = xstrdup(name);
	n->slot[h] = (uint32_t)++n->nr;
	if (n->nr * 2 > n->nr_slots)
		names_grow(n);
	return (long)n->nr - 1;
}

static void names_release(struct names *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->v[i]);
	free(n->v);
	free(n->slot);
}

struct iobject {
	char *path;
	uint32_t *gates, *deps;	/* sorted symbol ids */
	size_t nr_gates, nr_deps;
};

/* The objects of one function name. */
struct func_objs {
	size_t *objs;
	size_t nr, alloc;
};

struct objects_index {
	struct iobject *objs;
	size_t nr, alloc;
	struct names syms, funcs;
	struct func_objs *of;	/* by function id */
	size_t alloc_of;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The next space-separated word of *p, ended in place; NULL at the end. */
static char *next_word(char **p)
{
	char *w = *p, *end;

	while (*w == ' ')
		w++;
	if (!*w)
		return NULL;
	end = strchr(w, ' ');
	if (end) {
		*end = '\0';
		*p = end + 1;
	} else {
		*p = w + strlen(w);
	}
	return w;
}

/* The words after the tag of line, as sorted symbol ids. */
static uint32_t *symbol_ids(struct objects_index *idx, char *words, size_t *nr)
{
	uint32_t *ids = NULL;
	size_t n = 0, alloc = 0;
	char *w;

	while ((w = next_word(&words))) {
		ALLOC_GROW(ids, n + 1, alloc);
		ids[n++] = (uint32_t)names_id(&idx->syms, w, 1);
	}
	if (n)
		qsort(ids, n, sizeof(*ids), cmp_u32);
	*nr = n;
	return ids;
}

int objects_index_read(struct objects_index **out, const char *path)
{
	struct objects_index *idx = xcalloc(1, sizeof(*idx));
	gzFile gz = gzopen(path, "rb");
	struct strbuf line = STRBUF_INIT;
	char buf[8192];
	long lineno = 0;
	int ret = -1;

	*out = NULL;
	if (!gz) {
		error_errno("cannot open '%s'", path);
		goto out;
	}
	for (;;) {
		struct iobject *o = idx->nr ? &idx->objs[idx->nr - 1] : NULL;
		int eol = 0;
		char *p, *w;

		/* one whole line, however long */
		strbuf_reset(&line);
		while (!eol && gzgets(gz, buf, sizeof(buf))) {
			size_t n = strlen(buf);

			eol = n && buf[n - 1] == '\n';
			strbuf_add(&line, buf, eol ? n - 1 : n);
			if (line.len > LINE_MAX_BYTES * 16) {
				error("%s:%ld: a line over %d bytes", path, lineno + 1, LINE_MAX_BYTES * 16);
				goto out;
			}
		}
		if (!eol && !line.len)
			break;
		lineno++;
		if (lineno == 1) {
			if (strcmp(line.buf, INDEX_HEADER)) {
				error("%s:1: expected '%s', not an index of kconfperf's", path, INDEX_HEADER);
				goto out;
			}
			continue;
		}
		if (line.len < 2 || line.buf[1] != ' ' || (line.buf[0] != 'o' && !o) ||
		    !strchr("ogdf", line.buf[0])) {
			error("%s:%ld: expected 'o PATH', then 'g', 'd' or 'f' and words", path, lineno);
			goto out;
		}
		switch (line.buf[0]) {
		case 'o':
			ALLOC_GROW(idx->objs, idx->nr + 1, idx->alloc);
			memset(&idx->objs[idx->nr], 0, sizeof(*idx->objs));
			idx->objs[idx->nr++].path = xstrdup(line.buf + 2);
			break;
		case 'g':
			free(o->gates);
			o->gates = symbol_ids(idx, line.buf + 2, &o->nr_gates);
			break;
		case 'd':
			free(o->deps);
			o->deps = symbol_ids(idx, line.buf + 2, &o->nr_deps);
			break;
		case 'f':
			p = line.buf + 2;
			while ((w = next_word(&p))) {
				size_t id = (size_t)names_id(&idx->funcs, w, 1);
				struct func_objs *fo;

				if (id >= idx->alloc_of) {
					size_t old = idx->alloc_of;

					idx->alloc_of = (id + 1) * 2;
					idx->of = xrealloc(idx->of, idx->alloc_of * sizeof(*idx->of));
					memset(idx->of + old, 0, (idx->alloc_of - old) * sizeof(*idx->of));
				}
				fo = &idx->of[id];
				ALLOC_GROW(fo->objs, fo->nr + 1, fo->alloc);
				fo->objs[fo->nr++] = idx->nr - 1;
			}
			break;
		}
	}
	if (lineno == 0) {
		error("%s: empty, expected '%s'", path, INDEX_HEADER);
		goto out;
	}
	*out = idx;
	idx = NULL;
	ret = 0;
out:
	if (gz)
		gzclose(gz);
	strbuf_release(&line);
	objects_index_free(idx);
	return ret;
}

void objects_index_free(struct objects_index *idx)
{
	if (!idx)
		return;
	for (size_t i = 0; i < idx->nr; i++) {
		free(idx->objs[i].path);
		free(idx->objs[i].gates);
		free(idx->objs[i].deps);
	}
	free(idx->objs);
	for (size_t i = 0; i < idx->funcs.nr; i++)
		free(idx->of[i].objs);
	free(idx->of);
	names_release(&idx->syms);
	names_release(&idx->funcs);
	free(idx);
}

const char *objects_index_object(const struct objects_index *idx, size_t obj)
{
	return idx->objs[obj].path;
}

size_t objects_index_find(const struct objects_index *idx, const char *name,
			  const size_t **objs)
{
	size_t len = profile_base_len(name);
	char *base = xstrndup(name, len);
	long id = names_id((struct names *)&idx->funcs, base, 0);

	free(base);
	if (id < 0) {
		*objs = NULL;
		return 0;
	}
	*objs = idx->of[id].objs;
	return idx->of[id].nr;
}

static int has_id(const uint32_t *ids, size_t nr, uint32_t id)
{
	return nr && bsearch(&id, ids, nr, sizeof(*ids), cmp_u32) != NULL;
}

const char *objects_index_touches(const struct objects_index *idx, size_t obj,
				  const struct strvec *syms, int gate_only)
{
	const struct iobject *o = &idx->objs[obj];

	for (size_t i = 0; i < syms->nr; i++) {
		long id = names_id((struct names *)&idx->syms, bare(syms->v[i]), 0);

		if (id < 0)
			continue;
		if (has_id(o->gates, o->nr_gates, (uint32_t)id) ||
		    (!gate_only && has_id(o->deps, o->nr_deps, (uint32_t)id)))
			return idx->syms.v[id];
	}
	return NULL;
}
