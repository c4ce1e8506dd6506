/* patch.c: a unified diff for a kernel tree: its files and hunks, checked and applied with patch(1). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "plan/patch.h"
#include "util/run-command.h"
#include "util/usage.h"
#include "util/wrapper.h"

/* A patch bigger than this is not one to measure a kernel with. */
#define PATCH_MAX_SIZE (64 << 20)
#define PATCH_OUTPUT_CAP 16384

void kernel_patch_release(struct kernel_patch *p)
{
	free(p->path);
	strbuf_release(&p->text);
	strvec_clear(&p->files);
	free(p->hunks);
	memset(p, 0, sizeof(*p));
}

/* The lines of text, empty ones kept, without their '\n' (or "\r\n"). */
static void split_lines(struct strvec *out, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		size_t keep = len && p[len - 1] == '\r' ? len - 1 : len;
		char *line = xstrndup(p, keep);

		strvec_push(out, line);
		free(line);
		p += len;
		if (*p)
			p++;
	}
}

/* What parsing is at: the patch, the line and where its hunk stands. */
struct parse {
	struct kernel_patch *p;
	size_t alloc_hunks;
	int line;
	long file;		/* index into p->files of the file the hunks patch, or -1 */
	int hunks_in_file;
	long old_left, new_left;	/* lines of the hunk still to come */
	int hunk_line;
};

/*
 * The path of a "--- " or "+++ " header as patch -p1 sees it: the text up
 * to a tab (diff -u puts the date there), its first component dropped.
 * Sets *out to NULL for /dev/null.  0, or -1 with a message.
 */
static int header_path(char **out, const struct parse *ps, const char *text)
{
	size_t len = strcspn(text, "\t\n");
	const char *slash, *rest;
	char *path;
	int ret = 0;

	*out = NULL;
	while (len && text[len - 1] == ' ')
		len--;
	if (len == 9 && !strncmp(text, "/dev/null", 9))
		return 0;
	if (*text == '"')
		return error("%s:%d: quoted file names are not supported", ps->p->path, ps->line);
	path = xstrndup(text, len);
	slash = strchr(path, '/');
	if (!slash || !slash[1]) {
		ret = error("%s:%d: '%s' has no leading directory to drop (kconfperf applies "
			    "patches with -p1, as git diff writes them)", ps->p->path, ps->line, path);
		goto out;
	}
	rest = slash + 1;
	if (*rest == '/' || !strcmp(rest, "..") || starts_with(rest, "../") ||
	    strstr(rest, "/../") || ends_with(rest, "/..")) {
		ret = error("%s:%d: '%s' is outside the kernel tree", ps->p->path, ps->line, path);
		goto out;
	}
	*out = xstrdup(rest);
out:
	free(path);
	return ret;
}

static size_t add_file(struct kernel_patch *p, const char *path)
{
	int i = strvec_find(&p->files, path);

	if (i >= 0)
		return (size_t)i;
	strvec_push(&p->files, path);
	return p->files.nr - 1;
}

/* "@@ -a[,b] +c[,d] @@": the hunk's line counts. */
static int hunk_header(struct parse *ps, const char *text)
{
	long a, b = 1, c, d = 1;
	char *end;

	if (!skip_prefix(text, "@@ -", &text))
		goto bad;
	a = strtol(text, &end, 10);
	if (end == text || a < 0)
		goto bad;
	if (*end == ',') {
		text = end + 1;
		b = strtol(text, &end, 10);
		if (end == text || b < 0)
			goto bad;
	}
	if (!skip_prefix(end, " +", &text))
		goto bad;
	c = strtol(text, &end, 10);
	if (end == text || c < 0)
		goto bad;
	if (*end == ',') {
		text = end + 1;
		d = strtol(text, &end, 10);
		if (end == text || d < 0)
			goto bad;
	}
	if (!starts_with(end, " @@"))
		goto bad;
	if (ps->file < 0)
		return error("%s:%d: a hunk before any '---'/'+++' file header", ps->p->path,
			     ps->line);
	ps->old_left = b;
	ps->new_left = d;
	ps->hunk_line = ps->line;
	ALLOC_GROW(ps->p->hunks, ps->p->nr_hunks + 1, ps->alloc_hunks);
	ps->p->hunks[ps->p->nr_hunks].file = (size_t)ps->file;
	ps->p->hunks[ps->p->nr_hunks].number = ++ps->hunks_in_file;
	ps->p->hunks[ps->p->nr_hunks].line = ps->line;
	ps->p->nr_hunks++;
	return 0;
bad:
	return error("%s:%d: a hunk header that does not parse (expected '@@ -LINE,COUNT "
		     "+LINE,COUNT @@')", ps->p->path, ps->line);
}

/* One line inside a hunk: context, removed, added or "\ No newline". */
static int hunk_line(struct parse *ps, const char *line)
{
	switch (*line) {
	case ' ':
	case '\0':	/* a context line whose space an editor stripped */
		ps->old_left--;
		ps->new_left--;
		break;
	case '-':
		ps->old_left--;
		break;
	case '+':
		ps->new_left--;
		break;
	case '\\':
		return 0;
	default:
		return error("%s:%d: the hunk at line %d ends early (a line that is not ' ', "
			     "'-' or '+' before its header's counts are done)", ps->p->path,
			     ps->line, ps->hunk_line);
	}
	if (ps->old_left < 0 || ps->new_left < 0)
		return error("%s:%d: the hunk at line %d is longer than its header says",
			     ps->p->path, ps->line, ps->hunk_line);
	return 0;
}

/* A "--- OLD" line followed by "+++ NEW": a file header. */
static int file_header(struct parse *ps, const char *old_line, const char *new_line)
{
	char *old_path = NULL, *new_path = NULL;
	int ret = -1;

	if (header_path(&old_path, ps, old_line + 4))
		goto out;
	ps->line++;
	if (header_path(&new_path, ps, new_line + 4))
		goto out;
	if (!old_path && !new_path) {
		error("%s:%d: both sides of the file header are /dev/null", ps->p->path, ps->line);
		goto out;
	}
	if (old_path)
		ps->file = (long)add_file(ps->p, old_path);
	if (new_path)
		ps->file = (long)add_file(ps->p, new_path);
	ps->hunks_in_file = 0;
	ret = 0;
out:
	free(old_path);
	free(new_path);
	return ret;
}

static int parse(struct parse *ps)
{
	struct strvec lines = STRVEC_INIT;
	const char *rest;
	size_t i;
	int ret = -1;

	split_lines(&lines, ps->p->text.buf);
	for (i = 0; i < lines.nr; i++) {
		const char *line = lines.v[i];

		ps->line = (int)i + 1;
		if (ps->old_left > 0 || ps->new_left > 0) {
			if (hunk_line(ps, line))
				goto out;
			continue;
		}
		if (starts_with(line, "--- ") && i + 1 < lines.nr &&
		    starts_with(lines.v[i + 1], "+++ ")) {
			if (file_header(ps, line, lines.v[i + 1]))
				goto out;
			i++;
		} else if (starts_with(line, "@@ ")) {
			if (hunk_header(ps, line))
				goto out;
		} else if (skip_prefix(line, "rename from ", &rest) ||
			   skip_prefix(line, "rename to ", &rest) ||
			   skip_prefix(line, "copy from ", &rest) ||
			   skip_prefix(line, "copy to ", &rest)) {
			/* git's names here have no a/ or b/ to drop. */
			ps->file = (long)add_file(ps->p, rest);
		} else if (starts_with(line, "GIT binary patch") ||
			   (starts_with(line, "Binary files ") && ends_with(line, " differ"))) {
			error("%s:%d: binary patches are not supported", ps->p->path, ps->line);
			goto out;
		}
	}
	if (ps->old_left > 0 || ps->new_left > 0) {
		error("%s: ends inside the hunk at line %d", ps->p->path, ps->hunk_line);
		goto out;
	}
	if (!ps->p->files.nr) {
		error("'%s' is not a unified diff (no '---' and '+++' file headers in it)",
		      ps->p->path);
		goto out;
	}
	ret = 0;
out:
	strvec_clear(&lines);
	return ret;
}

int kernel_patch_read(struct kernel_patch *out, const char *path)
{
	struct parse ps = { .p = out, .file = -1 };

	memset(out, 0, sizeof(*out));
	strbuf_init(&out->text, 0);
	strvec_init(&out->files);
	out->path = xstrdup(path);
	if (strbuf_read_file_max(&out->text, path, PATCH_MAX_SIZE) < 0)
		goto fail;
	{
		struct sha256 c;

		sha256_init(&c);
		sha256_update(&c, out->text.buf, out->text.len);
		sha256_final_hex(&c, out->hash);
	}
	if (parse(&ps))
		goto fail;
	return 0;
fail:
	kernel_patch_release(out);
	return -1;
}

/* The line of hunk #number of file in the patch, or 0. */
static int hunk_line_of(const struct kernel_patch *p, const char *file, int number)
{
	size_t i;

	for (i = 0; i < p->nr_hunks; i++)
		if (p->hunks[i].number == number && !strcmp(p->files.v[p->hunks[i].file], file))
			return p->hunks[i].line;
	return 0;
}

/* The line of the first hunk of file, or 0. */
static int file_line_of(const struct kernel_patch *p, const char *file)
{
	return hunk_line_of(p, file, 1);
}

/* "checking file X" / "patching file X" (patch quotes odd names: 'X'). */
static void set_current(struct strbuf *cur, const char *name)
{
	size_t len = strlen(name);

	strbuf_reset(cur);
	if (len >= 2 && name[0] == '\'' && name[len - 1] == '\'')
		strbuf_add(cur, name + 1, len - 2);
	else
		strbuf_addstr(cur, name);
}

/*
 * What patch(1) said, as one error about the first thing that did not
 * apply, named by its line in the patch.
 */
static int explain_failure(const struct kernel_patch *p, const char *output, const char *what)
{
	struct strvec lines = STRVEC_INIT;
	struct strbuf cur = STRBUF_INIT;
	const char *rest;
	size_t i;
	int ret = 0;

	split_lines(&lines, output);
	for (i = 0; i < lines.nr && !ret; i++) {
		const char *line = lines.v[i];
		int number, at;

		if (skip_prefix(line, "checking file ", &rest) ||
		    skip_prefix(line, "patching file ", &rest)) {
			set_current(&cur, rest);
		} else if (sscanf(line, "Hunk #%d FAILED at %d", &number, &at) == 2) {
			int hl = hunk_line_of(p, cur.buf, number);

			ret = error("%s:%d: hunk #%d of %s does not apply to %s (patch: %s)", p->path,
				    hl, number, cur.buf, what, line);
		} else if (starts_with(line, "can't find file to patch")) {
			size_t k;
			char *file = NULL;

			/* patch echoes the header: "|+++ b/kernel/x.c" */
			for (k = i + 1; k < lines.nr && k < i + 12 && !file; k++) {
				const char *h = lines.v[k];

				if (skip_prefix(h, "|+++ ", &h) || skip_prefix(h, "|--- ", &h)) {
					const char *slash = strchr(h, '/');

					if (slash && !starts_with(h, "/dev/null"))
						file = xstrndup(slash + 1, strcspn(slash + 1, "\t"));
				}
			}
			ret = error("%s:%d: %s is not in %s: there is no file to patch",
				    p->path, file ? file_line_of(p, file) : 0, file ? file : "a file",
				    what);
			free(file);
		} else if (starts_with(line, "Reversed (or previously applied) patch detected")) {
			ret = error("%s:%d: %s in %s already looks patched (or the patch is "
				    "reversed)", p->path, file_line_of(p, cur.buf), cur.buf, what);
		} else if (starts_with(line, "The next patch would create the file")) {
			ret = error("%s: %s (in %s)", p->path, line, what);
		} else if (starts_with(line, "patch: **** ")) {
			ret = error("%s: %s", p->path, line + 12);
		}
	}
	if (!ret) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, output);
		strbuf_trim(&sb);
		ret = error("%s does not apply to %s%s%s", p->path, what, sb.len ? ":\n" : "",
			    sb.buf);
		strbuf_release(&sb);
	}
	strbuf_release(&cur);
	strvec_clear(&lines);
	return ret;
}

int kernel_patch_apply(const struct kernel_patch *p, const char *dir, const char *what,
		       int dry_run)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	char *input = absolute_path(p->path);
	int ret = 0;

	strvec_pushv(&cp.args, (const char *[]){ "patch", "-p1", "--batch", "--forward",
		"--fuzz=0", "--no-backup-if-mismatch", "--reject-file=-", "-d", dir, "-i",
		input, NULL });
	if (dry_run)
		strvec_push(&cp.args, "--dry-run");
	strvec_push(&cp.env, "LC_ALL=C");
	cp.in.mode = CHILD_IO_NULL;
	cp.out.mode = CHILD_IO_CAPTURE;
	cp.out.buf = &out;
	cp.out.cap = PATCH_OUTPUT_CAP;
	cp.err.mode = CHILD_IO_TO_STDOUT;
	cp.timeout = 600;
	if (run_command(&cp)) {
		if (cp.start_errno)
			ret = error("cannot run patch(1) to apply %s (is GNU patch installed?)",
				    p->path);
		else
			ret = explain_failure(p, out.buf, what);
	}
	free(input);
	strbuf_release(&out);
	child_process_release(&cp);
	return ret;
}
