/* test-kconfig-index.c: the Kconfig symbol index on synthetic trees, explain and deps. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kconfig/kconfig-index.h"
#include "util/strbuf.h"
#include "util/strvec.h"
#include "test-lib.h"
#include "util/wrapper.h"

/*
 * A .config for the lookup callback: a NULL-terminated list of
 * "NAME=value" strings, without CONFIG_.
 */
static const char *get_fake(const char *name, void *data)
{
	const char *const *p;
	size_t len = strlen(name);

	for (p = data; *p; p++)
		if (!strncmp(*p, name, len) && (*p)[len] == '=')
			return *p + len + 1;
	return NULL;
}

static const char *const empty_config[] = { NULL };

/* Writes a file under dir, creating its directories. */
static void write_file(const char *dir, const char *path, const char *text)
{
	struct strbuf full = STRBUF_INIT, sb = STRBUF_INIT;
	char *slash;

	strbuf_addf(&full, "%s/%s", dir, path);
	slash = strrchr(full.buf, '/');
	*slash = '\0';
	mkdir_p(full.buf, 0755);
	*slash = '/';
	strbuf_addstr(&sb, text);
	if (strbuf_write_file(&sb, full.buf))
		exit(1);
	strbuf_release(&full);
	strbuf_release(&sb);
}

/* A fresh directory for one synthetic tree. */
static const char *tree_dir(const char *name)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/%s", test_tmpdir(), name);
	mkdir_p(sb.buf, 0755);
	return sb.buf;
}

static struct kconfig_index *load(const char *dir)
{
	struct kconfig_index *idx = NULL;

	test_capture_start();
	if (kconfig_index_load(&idx, dir, "x86"))
		idx = NULL;
	test_capture_stop();
	return idx;
}

/* load() for a tree that should load: if it does not, its messages go to stderr. */
static struct kconfig_index *load_showing_errors(const char *dir)
{
	struct kconfig_index *idx = load(dir);

	if (!idx)
		fprintf(stderr, "# %s", test_messages.buf);
	return idx;
}

static const char *explain(const struct kconfig_index *idx, const char *name,
			   const char *const *config, enum kconfig_explain *what)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	*what = kconfig_index_explain(&sb, idx, name, get_fake, (void *)config);
	return sb.buf;
}

/* deps_to_enable as "A B C", or "cannot: why". */
static const char *deps(const struct kconfig_index *idx, const char *name,
			const char *const *config)
{
	static struct strbuf sb = STRBUF_INIT;
	struct strvec out = STRVEC_INIT;
	struct strbuf why = STRBUF_INIT;
	size_t i;

	strbuf_reset(&sb);
	if (kconfig_index_deps_to_enable(&out, idx, name, get_fake, (void *)config, &why)) {
		strbuf_addf(&sb, "cannot: %s", why.buf);
	} else {
		for (i = 0; i < out.nr; i++)
			strbuf_addf(&sb, "%s%s", i ? " " : "", out.v[i]);
	}
	strvec_clear(&out);
	strbuf_release(&why);
	return sb.buf;
}

static const char *joined(struct strvec *sv)
{
	static struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_reset(&sb);
	for (i = 0; i < sv->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", sv->v[i]);
	strvec_clear(sv);
	return sb.buf;
}

static const char *const top_kconfig =
	"# SPDX-License-Identifier: GPL-2.0\n"
	"mainmenu \"Linux/$(ARCH) $(KERNELVERSION) Kernel Configuration\"\n"
	"\n"
	"source \"scripts/Kconfig.include\"\n"
	"source \"arch/$(SRCARCH)/Kconfig\"\n"
	"source \"drivers/*/Kconfig\"\n"
	"osource \"missing/Kconfig\"\n"
	"source \"lib/Kconfig\"\n";

static const char *const include_kconfig =
	"comma       := ,\n"
	"if-success = $(shell,{ $(1); } >/dev/null 2>&1 && echo \"$(2)\" || echo \"$(3)\")\n"
	"cc-option = $(success,$(CC) -Werror $(1) -c -x c /dev/null -o /dev/null)\n"
	"$(error-if,$(failure,command -v $(CC)),C compiler '$(CC)' not found)\n";

static const char *const arch_kconfig =
	"config 64BIT\n"
	"\tbool \"64-bit kernel\" if \"$(ARCH)\" = \"x86\"\n"
	"\tdefault \"$(ARCH)\" != \"i386\"\n"
	"\n"
	"config X86_64\n"
	"\tdef_bool y\n"
	"\tdepends on 64BIT\n"
	"\n"
	"config X86\n"
	"\tdef_bool y\n"
	"\tselect HAVE_FOO\n"
	"\tselect HAVE_BAR if X86_64\n"
	"\timply IMPLIED\n"
	"\n"
	"config HAVE_FOO\n"
	"\tbool\n"
	"\n"
	"config HAVE_BAR\n"
	"\tbool\n";

static void write_source_tree(const char *dir)
{
	write_file(dir, "Kconfig", top_kconfig);
	write_file(dir, "scripts/Kconfig.include", include_kconfig);
	write_file(dir, "arch/x86/Kconfig", arch_kconfig);
	write_file(dir, "arch/arm/Kconfig", "config ARM\n\tdef_bool y\n");
	write_file(dir, "drivers/a/Kconfig",
		   "config DRIVER_A\n"
		   "\ttristate \"driver A\"\n"
		   "\tdepends on HAVE_FOO && $(cc-option,-fstack-protector)\n");
	write_file(dir, "drivers/b/Kconfig",
		   "menuconfig DRIVER_B\n"
		   "\tbool \"driver B\"\n"
		   "\timply IMPLIED if DRIVER_A\n"
		   "\n"
		   "config IMPLIED\n"
		   "\tbool \"implied\"\n");
	write_file(dir, "lib/Kconfig",
		   "rsource \"Kconfig.debug\"\n"
		   "orsource \"Kconfig.nothere\"\n");
	write_file(dir, "lib/Kconfig.debug",
		   "config DEBUG_KERNEL\n"
		   "\tbool \"Kernel debugging\"\n");
}

static void test_index_sources(void)
{
	const char *dir = tree_dir("sources");
	struct kconfig_index *idx;
	struct strvec sv = STRVEC_INIT;

	write_source_tree(dir);
	idx = load_showing_errors(dir);
	if (!check(idx))
		return;
	check_str(kconfig_index_arch(idx), "x86");
	/* Kconfig, Kconfig.include, arch/x86, drivers/a, drivers/b, lib, lib debug */
	check_int(kconfig_index_nr_files(idx), ==, 7);
	check_int(kconfig_index_nr_symbols(idx), ==, 9);
	check(kconfig_index_has(idx, "X86"));
	check(kconfig_index_has(idx, "DRIVER_A"));
	check(kconfig_index_has(idx, "DRIVER_B"));
	check(kconfig_index_has(idx, "DEBUG_KERNEL"));
	check(!kconfig_index_has(idx, "ARM"));
	check(!kconfig_index_has(idx, "NOPE"));
	check_int(kconfig_index_type(idx, "DRIVER_A"), ==, KCONFIG_TRISTATE);
	check_int(kconfig_index_type(idx, "X86"), ==, KCONFIG_BOOL);
	check_int(kconfig_index_type(idx, "NOPE"), ==, KCONFIG_TYPE_NONE);
	check(kconfig_index_has_prompt(idx, "64BIT"));
	check(!kconfig_index_has_prompt(idx, "X86_64"));
	kconfig_index_locations(&sv, idx, "DEBUG_KERNEL");
	check_str(joined(&sv), "lib/Kconfig.debug:1");
	kconfig_index_locations(&sv, idx, "DRIVER_B");
	check_str(joined(&sv), "drivers/b/Kconfig:1");
	kconfig_index_selectors(&sv, idx, "HAVE_BAR", 1);
	check_str(joined(&sv), "X86 if X86_64");
	kconfig_index_selectors(&sv, idx, "HAVE_BAR", 0);
	check_str(joined(&sv), "X86");
	kconfig_index_impliers(&sv, idx, "IMPLIED", 1);
	check_str(joined(&sv), "X86, DRIVER_B if DRIVER_A");
	kconfig_index_free(idx);
}

static void test_index_load_errors(void)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "config A\n\tbool \"a\"\n\tfrobnicate\n", "Kconfig:3: unknown statement 'frobnicate'" },
		{ "config A\n\tbool\nendif\n", "Kconfig:3: 'endif' without 'if'" },
		{ "if A\nconfig B\n\tbool\n", "Kconfig:1: no 'endif' before the end of the file" },
		{ "menu \"m\"\nendif\n", "Kconfig:2: 'endif' without 'if'" },
		{ "source \"nothere/Kconfig\"\n", "Kconfig:1: cannot source 'nothere/Kconfig'" },
		{ "source \"$(FOO)/Kconfig\"\n", "Kconfig:1: cannot expand '$(FOO)/Kconfig'" },
		{ "config A\n\tdepends on B &&\n", "Kconfig:2: bad expression" },
		{ "config A\n\tbool \"a\" if\n", "Kconfig:2: bad expression" },
		{ "\tdepends on A\n", "Kconfig:1: 'depends' outside a config, menu or choice" },
		{ "source \"Kconfig\"\n", "Kconfig:1: 'Kconfig' sources itself" },
		{ "source \"sub/*/Kconfig\"\n", "Kconfig:1: no file matches 'sub/*/Kconfig'" },
		{ "config\n", "Kconfig:1: 'config' needs a symbol name" },
	};
	struct strbuf name = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *dir;
		struct kconfig_index *idx;

		strbuf_reset(&name);
		strbuf_addf(&name, "bad%zu", i);
		dir = tree_dir(name.buf);
		write_file(dir, "Kconfig", cases[i].text);
		idx = load(dir);
		check(!idx);
		if (!check(strstr(test_messages.buf, cases[i].msg)))
			fprintf(stderr, "# case %zu: %s", i, test_messages.buf);
		kconfig_index_free(idx);
	}
	strbuf_release(&name);
}

static const char *const blocks_kconfig =
	"config DEBUG_KERNEL\n"
	"\tbool \"Kernel debugging\"\n"
	"\n"
	"config EXPERT\n"
	"\tbool \"Expert\"\n"
	"\n"
	"if DEBUG_KERNEL\n"
	"\n"
	"menu \"Lock debugging\"\n"
	"\tdepends on LOCK_SUPPORT\n"
	"\n"
	"config PROVE\n"
	"\tbool \"prove\"\n"
	"\tdepends on X86_64 && (A || B)\n"
	"\tselect LOCKDEP\n"
	"\n"
	"endmenu\n"
	"\n"
	"menu \"Expert knobs\"\n"
	"\tvisible if EXPERT\n"
	"\n"
	"config KNOB\n"
	"\tbool \"knob\"\n"
	"\n"
	"endmenu\n"
	"\n"
	"endif # DEBUG_KERNEL\n"
	"\n"
	"config LOCK_SUPPORT\n"
	"\tdef_bool y\n"
	"\n"
	"config LOCKDEP\n"
	"\tbool\n"
	"\tdepends on DEBUG_KERNEL && LOCK_SUPPORT\n"
	"\n"
	"config X86_64\n"
	"\tdef_bool y\n"
	"\n"
	"config A\n"
	"\tbool \"a\"\n"
	"config B\n"
	"\tbool \"b\"\n"
	"\tdepends on !X86_64\n";

static void test_index_blocks(void)
{
	static const char *const off[] = { "LOCK_SUPPORT=y", "X86_64=y", NULL };
	static const char *const on[] = { "DEBUG_KERNEL=y", "LOCK_SUPPORT=y", "X86_64=y", NULL };
	static const char *const all[] = {
		"DEBUG_KERNEL=y", "LOCK_SUPPORT=y", "X86_64=y", "A=y", "EXPERT=y", NULL,
	};
	const char *dir = tree_dir("blocks");
	struct kconfig_index *idx;
	enum kconfig_explain what;

	write_file(dir, "Kconfig", blocks_kconfig);
	idx = load_showing_errors(dir);
	if (!check(idx))
		return;
	check_str(explain(idx, "PROVE", off, &what),
		  "inside 'if DEBUG_KERNEL': DEBUG_KERNEL=n (Kconfig:7); "
		  "depends on X86_64 && (A || B): A=n, B=n (Kconfig:12)");
	check_int(what, ==, KCONFIG_EXPLAIN_UNMET_DEPS);
	check_str(explain(idx, "PROVE", on, &what),
		  "depends on X86_64 && (A || B): A=n, B=n (Kconfig:12)");
	check_int(what, ==, KCONFIG_EXPLAIN_UNMET_DEPS);
	check_str(explain(idx, "PROVE", all, &what),
		  "has a visible prompt and its dependencies are met (Kconfig:12)");
	check_int(what, ==, KCONFIG_EXPLAIN_SETTABLE);

	/* menu "depends on" reaches the entries inside */
	check_str(explain(idx, "PROVE", (const char *const[]){ "DEBUG_KERNEL=y", "X86_64=y",
							       "A=y", NULL }, &what),
		  "inside menu 'Lock debugging' which depends on LOCK_SUPPORT: "
		  "LOCK_SUPPORT=n (Kconfig:9)");
	check_int(what, ==, KCONFIG_EXPLAIN_UNMET_DEPS);

	/* "visible if" hides the prompt but is no dependency */
	check_str(explain(idx, "KNOB", on, &what),
		  "inside menu 'Expert knobs' visible only if EXPERT: EXPERT=n (Kconfig:19); "
		  "nothing selects it");
	check_int(what, ==, KCONFIG_EXPLAIN_HIDDEN);
	check_str(deps(idx, "KNOB", on), "EXPERT");
	check_str(deps(idx, "KNOB", off), "DEBUG_KERNEL EXPERT");

	/* B needs X86_64 off: a negation cannot be met by enabling */
	check_str(deps(idx, "PROVE", on), "A");
	check_str(deps(idx, "B", on), "cannot: '!X86_64' would need something disabled");

	check_str(explain(idx, "LOCKDEP", all, &what),
		  "has no prompt, so only select or its default can set it; selected by PROVE");
	check_int(what, ==, KCONFIG_EXPLAIN_HIDDEN);
	check_str(explain(idx, "NOPE", all, &what), "no Kconfig file defines it for SRCARCH=x86");
	check_int(what, ==, KCONFIG_EXPLAIN_UNKNOWN);
	kconfig_index_free(idx);
}

/*
 * Help texts and where they end.  line23 is the first line indented less
 * than the help text above it (seven columns), so it ends that help.
 */
static void write_help_tree(const char *dir, const char *line23)
{
	static const char *const before =
		"config HELPED\n"
		"\tbool \"helped\"\n"
		"\thelp\n"
		"\n"
		"\t  The first line sets the indentation (10 columns).\n"
		"\n"
		"\t  config NOT_A_SYMBOL\n"
		"\t      deeper is still help; so are 'quotes, \"odd # chars\n"
		" \t  a space and a tab reach column 8, plus two: still help\n"
		"\t    endif\n"
		"\t  menu \"not a menu\"\n"
		"\t depends on FOO\n"
		"\n"
		"config AFTER\n"
		"\tbool \"after\"\n"
		"\t---help---\n"
		"config EMPTY_HELP_ENDED\n"
		"\tbool \"next\"\n"
		"\thelp\n"
		"        eight spaces of indentation\n"
		"\ttab is eight too\n"
		"        select NOT_SELECTED\n";
	static const char *const after =
		"\n"
		"config FOO\n"
		"\tbool \"foo\" \\\n"
		"\t\tif BAR\n"
		"\thelp\n"
		"\t  help text at the end of the file\n"
		"  \n";
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s%s%s", before, line23, after);
	write_file(dir, "Kconfig", sb.buf);
	strbuf_release(&sb);
}

static void test_help_blocks(void)
{
	const char *dir = tree_dir("help");
	struct kconfig_index *idx;
	enum kconfig_explain what;

	write_help_tree(dir, "       seven: ends the help\n");
	test_capture_start();
	idx = load(dir);
	test_capture_stop();
	/* "seven: ends the help" is a statement, and not a valid one */
	check(!idx);
	check(strstr(test_messages.buf, "Kconfig:23: unknown statement 'seven'") != NULL);

	write_help_tree(dir, "       depends on AFTER\n");
	idx = load_showing_errors(dir);
	if (!check(idx))
		return;
	check(kconfig_index_has(idx, "HELPED"));
	check(kconfig_index_has(idx, "AFTER"));
	check(kconfig_index_has(idx, "EMPTY_HELP_ENDED"));
	check(kconfig_index_has(idx, "FOO"));
	check(!kconfig_index_has(idx, "NOT_A_SYMBOL"));
	check_int(kconfig_index_nr_symbols(idx), ==, 4);
	/* the line indented less than the help text belongs to the entry */
	check_str(explain(idx, "HELPED", empty_config, &what),
		  "depends on FOO: FOO=n (Kconfig:1)");
	check_str(explain(idx, "EMPTY_HELP_ENDED", empty_config, &what),
		  "depends on AFTER: AFTER=n (Kconfig:17)");
	/* a continued line; the prompt's "if" */
	check_str(explain(idx, "FOO", empty_config, &what),
		  "its prompt is shown only if BAR: BAR=n (undefined) (Kconfig:25); nothing selects it");
	check_int(what, ==, KCONFIG_EXPLAIN_HIDDEN);
	kconfig_index_free(idx);
}

static const char *const select_kconfig =
	"config MODULES\n"
	"\tbool \"modules\"\n"
	"\tmodules\n"
	"\n"
	"config A\n"
	"\tbool \"a\"\n"
	"\tselect HIDDEN\n"
	"\n"
	"config B\n"
	"\ttristate \"b\"\n"
	"\tselect HIDDEN if C\n"
	"\tselect HIDDEN if D\n"
	"\n"
	"config C\n"
	"\tbool \"c\"\n"
	"\n"
	"config D\n"
	"\tbool \"d\"\n"
	"\n"
	"config HIDDEN\n"
	"\tbool\n"
	"\n"
	"config TWICE\n"
	"\tbool \"twice, here visible if C\" if C\n"
	"\tdepends on A\n"
	"\n"
	"config TWICE\n"
	"\tbool\n"
	"\tdepends on D\n"
	"\tdefault y\n"
	"\n"
	"config MOD_ONLY\n"
	"\ttristate \"module only\"\n"
	"\tdepends on B\n"
	"\n"
	"config BOOL_ON_MOD\n"
	"\tbool \"bool on a module\"\n"
	"\tdepends on B\n"
	"\n"
	"config NEEDS_HIDDEN\n"
	"\tbool \"needs hidden\"\n"
	"\tdepends on HIDDEN && A\n"
	"\n"
	"config NEEDS_HIDDEN_IF\n"
	"\tbool \"needs hidden, selected if\"\n"
	"\tdepends on HIDDEN\n"
	"\tdepends on B && D\n"
	"\n"
	"config FOLLOWS\n"
	"\tdef_bool C\n"
	"\tdepends on D\n"
	"\n"
	"config NEEDS_FOLLOWS\n"
	"\tbool \"needs a def_bool\"\n"
	"\tdepends on FOLLOWS\n"
	"\n"
	"config NUMBER\n"
	"\tint \"number\"\n"
	"\trange 1 64\n"
	"\tdefault 8\n"
	"\n"
	"config NEEDS_NUMBER\n"
	"\tbool \"needs a number\"\n"
	"\tdepends on NUMBER && NUMBER > 16\n"
	"\n"
	"config CYCLE_A\n"
	"\tbool \"cycle a\"\n"
	"\tdepends on CYCLE_B\n"
	"\n"
	"config CYCLE_B\n"
	"\tbool \"cycle b\"\n"
	"\tdepends on CYCLE_A\n"
	"\n"
	"config NEEDS_UNDEFINED\n"
	"\tbool \"needs undefined\"\n"
	"\tdepends on ARM || HIDDEN_NO_SELECT\n"
	"\n"
	"config HIDDEN_NO_SELECT\n"
	"\tbool\n"
	"\n"
	"config EQ\n"
	"\tbool \"eq\"\n"
	"\tdepends on C = y && D != n\n";

static void test_select_imply_and_definitions(void)
{
	static const char *const mods[] = { "MODULES=y", "B=m", NULL };
	static const char *const c_on[] = { "C=y", NULL };
	const char *dir = tree_dir("select");
	struct kconfig_index *idx;
	enum kconfig_explain what;
	struct strvec sv = STRVEC_INIT;

	write_file(dir, "Kconfig", select_kconfig);
	idx = load_showing_errors(dir);
	if (!check(idx))
		return;
	/* one entry per select, listed once per symbol */
	kconfig_index_selectors(&sv, idx, "HIDDEN", 1);
	check_str(joined(&sv), "A, B if C, B if D");
	kconfig_index_selectors(&sv, idx, "HIDDEN", 0);
	check_str(joined(&sv), "A, B");
	check_str(explain(idx, "HIDDEN", empty_config, &what),
		  "has no prompt, so only select or its default can set it; "
		  "selected by A, B if C, B if D");
	check_int(what, ==, KCONFIG_EXPLAIN_HIDDEN);

	/* two definitions: the one with a prompt decides */
	kconfig_index_locations(&sv, idx, "TWICE");
	check_str(joined(&sv), "Kconfig:23, Kconfig:27");
	check(kconfig_index_has_prompt(idx, "TWICE"));
	check_str(explain(idx, "TWICE", empty_config, &what), "depends on A: A=n (Kconfig:23)");
	check_int(what, ==, KCONFIG_EXPLAIN_UNMET_DEPS);
	check_str(explain(idx, "TWICE", (const char *const[]){ "A=y", NULL }, &what),
		  "its prompt is shown only if C: C=n (Kconfig:23); nothing selects it");
	check_int(what, ==, KCONFIG_EXPLAIN_HIDDEN);
	check_str(deps(idx, "TWICE", empty_config), "A C");

	/* dependencies at m */
	check_str(explain(idx, "MOD_ONLY", mods, &what),
		  "can be at most m: depends on B: B=m (Kconfig:32)");
	check_int(what, ==, KCONFIG_EXPLAIN_MODULE_ONLY);
	check_str(deps(idx, "MOD_ONLY", mods), "B");
	check_str(explain(idx, "BOOL_ON_MOD", mods, &what),
		  "has a visible prompt and its dependencies are met (Kconfig:36)");
	check_int(what, ==, KCONFIG_EXPLAIN_SETTABLE);

	/*
	 * A hidden atom holds once a symbol set on the way selects it, even
	 * when it comes first; a selector is never picked for it alone.
	 */
	check_str(deps(idx, "NEEDS_HIDDEN", empty_config), "A");
	check_str(deps(idx, "NEEDS_HIDDEN_IF", empty_config), "B D");
	check_str(deps(idx, "NEEDS_HIDDEN_IF", c_on), "B D");
	check_str(deps(idx, "NEEDS_HIDDEN_IF", (const char *const[]){ "B=y", NULL }), "D");
	/* a hidden def_bool follows its default */
	check_str(deps(idx, "NEEDS_FOLLOWS", empty_config), "D C");
	check_str(deps(idx, "FOLLOWS", empty_config), "D C");
	check_str(explain(idx, "FOLLOWS", empty_config, &what),
		  "has no prompt, so only select or its default can set it; defaults: C; "
		  "nothing selects it");

	/* giving up */
	check_str(deps(idx, "NEEDS_NUMBER", empty_config),
		  "cannot: NUMBER is int, not bool or tristate");
	check_str(deps(idx, "CYCLE_A", empty_config), "cannot: CYCLE_A depends on itself");
	check_str(deps(idx, "NEEDS_UNDEFINED", empty_config),
		  "cannot: no side of 'ARM || HIDDEN_NO_SELECT' can be met: "
		  "ARM is not defined for SRCARCH=x86; HIDDEN_NO_SELECT has no prompt");
	check_str(deps(idx, "HIDDEN", empty_config),
		  "cannot: HIDDEN has no prompt (selected by A, B)");
	check_str(deps(idx, "NOPE", empty_config),
		  "cannot: no Kconfig file defines NOPE for SRCARCH=x86");
	check_str(explain(idx, "NEEDS_UNDEFINED", empty_config, &what),
		  "depends on ARM || HIDDEN_NO_SELECT: ARM=n (undefined), HIDDEN_NO_SELECT=n "
		  "(Kconfig:74)");
	check_str(explain(idx, "NEEDS_NUMBER", (const char *const[]){ "NUMBER=8", NULL }, &what),
		  "depends on NUMBER && NUMBER > 16: NUMBER=8 (Kconfig:62)");
	/* comparisons that ask for a symbol enabled */
	check_str(deps(idx, "EQ", empty_config), "C D");

	/* out is left as it was when giving up, and what it holds counts as y */
	{
		struct strvec out = STRVEC_INIT;
		struct strbuf why = STRBUF_INIT;

		strvec_push(&out, "C");
		check_int(kconfig_index_deps_to_enable(&out, idx, "CYCLE_A", get_fake,
						       (void *)empty_config, &why), ==, 1);
		check_int(out.nr, ==, 1);
		check_int(kconfig_index_deps_to_enable(&out, idx, "NEEDS_HIDDEN", get_fake,
						       (void *)empty_config, NULL), ==, 0);
		check_str(joined(&out), "C, A");
		strbuf_release(&why);
	}
	kconfig_index_free(idx);
}

static const char *const choice_kconfig =
	"config SLOB_OK\n"
	"\tbool \"slob ok\"\n"
	"\n"
	"config EXPERT\n"
	"\tbool \"expert\"\n"
	"\n"
	"choice\n"
	"\tprompt \"Choose SLAB allocator\"\n"
	"\tdefault SLUB\n"
	"\tdepends on MMU_OK\n"
	"\thelp\n"
	"\t  The allocator.\n"
	"\n"
	"config SLAB\n"
	"\tbool \"SLAB\"\n"
	"\n"
	"config SLUB\n"
	"\tbool \"SLUB\"\n"
	"\n"
	"if SLOB_OK\n"
	"config SLOB\n"
	"\tbool \"SLOB\"\n"
	"\tdepends on EXPERT\n"
	"endif\n"
	"\n"
	"endchoice\n"
	"\n"
	"config MMU_OK\n"
	"\tbool \"mmu\"\n"
	"\n"
	"config FAILSLAB\n"
	"\tbool \"failslab\"\n"
	"\tdepends on SLAB || SLUB\n";

static void test_choice(void)
{
	static const char *const mmu[] = { "MMU_OK=y", "SLOB_OK=y", "SLAB=y", NULL };
	const char *dir = tree_dir("choice");
	struct kconfig_index *idx;
	enum kconfig_explain what;

	write_file(dir, "Kconfig", choice_kconfig);
	idx = load_showing_errors(dir);
	if (!check(idx))
		return;
	check_str(explain(idx, "SLUB", mmu, &what),
		  "member of choice 'Choose SLAB allocator' (Kconfig:7) with SLAB, SLOB: "
		  "setting it deselects the others");
	check_int(what, ==, KCONFIG_EXPLAIN_CHOICE);
	check_str(explain(idx, "SLUB", empty_config, &what),
		  "inside choice 'Choose SLAB allocator' which depends on MMU_OK: MMU_OK=n (Kconfig:7)");
	check_int(what, ==, KCONFIG_EXPLAIN_UNMET_DEPS);
	check_str(explain(idx, "SLOB", mmu, &what), "depends on EXPERT: EXPERT=n (Kconfig:21)");
	check_int(what, ==, KCONFIG_EXPLAIN_UNMET_DEPS);
	check_str(deps(idx, "SLOB", empty_config), "MMU_OK SLOB_OK EXPERT");
	/* the first alternative of || that can be met */
	check_str(deps(idx, "FAILSLAB", empty_config), "MMU_OK SLAB");
	check_str(deps(idx, "FAILSLAB", mmu), "");
	/* setting a member deselects the others: which they are */
	{
		struct strvec others = STRVEC_INIT;

		kconfig_index_choice_others(&others, idx, "SLUB");
		check_int(others.nr, ==, 2);
		check_str(others.nr > 1 ? others.v[0] : "", "SLAB");
		check_str(others.nr > 1 ? others.v[1] : "", "SLOB");
		strvec_clear(&others);
		kconfig_index_choice_others(&others, idx, "FAILSLAB");
		kconfig_index_choice_others(&others, idx, "NO_SUCH");
		check_int(others.nr, ==, 0);
		strvec_clear(&others);
	}
	kconfig_index_free(idx);
}

static void test_names(void)
{
	check_str(kconfig_explain_name(KCONFIG_EXPLAIN_SETTABLE), "settable");
	check_str(kconfig_explain_name(KCONFIG_EXPLAIN_UNKNOWN), "unknown");
	check_str(kconfig_explain_name(KCONFIG_EXPLAIN_HIDDEN), "hidden");
	check_str(kconfig_explain_name(KCONFIG_EXPLAIN_UNMET_DEPS), "unmet-deps");
	check_str(kconfig_explain_name(KCONFIG_EXPLAIN_MODULE_ONLY), "module-only");
	check_str(kconfig_explain_name(KCONFIG_EXPLAIN_CHOICE), "choice");
	check_str(kconfig_type_name(KCONFIG_HEX), "hex");
	check_str(kconfig_type_name(KCONFIG_TYPE_NONE), "untyped");
}

static void test_macro_assumptions(void)
{
	static const char *const foo[] = { "HAVE_FOO=y", NULL };
	const char *dir = tree_dir("macros");
	struct kconfig_index *idx;
	enum kconfig_explain what;

	write_source_tree(dir);
	idx = load_showing_errors(dir);
	if (!check(idx))
		return;
	check_str(explain(idx, "DRIVER_A", foo, &what),
		  "has a visible prompt and its dependencies are met (drivers/a/Kconfig:1); "
		  "assuming these toolchain tests pass: $(cc-option,-fstack-protector)");
	check_int(what, ==, KCONFIG_EXPLAIN_SETTABLE);
	/* $(ARCH) in a prompt condition stands for the SRCARCH */
	check_int(explain(idx, "64BIT", empty_config, &what) != NULL, ==, 1);
	check_int(what, ==, KCONFIG_EXPLAIN_SETTABLE);
	kconfig_index_free(idx);
}

int main(int argc, char **argv)
{
	test_init(argc, argv);
	TEST(test_index_sources);
	TEST(test_index_load_errors);
	TEST(test_index_blocks);
	TEST(test_help_blocks);
	TEST(test_select_imply_and_definitions);
	TEST(test_choice);
	TEST(test_names);
	TEST(test_macro_assumptions);
	return test_done();
}
