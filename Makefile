# SPDX-License-Identifier: GPL-3.0-or-later
# kconfperf's build.  Targets:
#   make               build ./kconfperf (and the guest, build/kcp-guest, and
#                      build/kcp-guest-arm64 when aarch64-linux-gnu-gcc is there;
#                      and the instruction meter, qemu plugin build/kcp-meter.so)
#   make unit          run the C unit tests (seconds)
#   make check         unit tests, then the shell integration tests in tests/t/
#   make check-fast    unit tests and the fast tier (tests/t/t2*-fast-*.sh): the
#                      whole pipeline on a fake kernel tree and runner, in seconds
#   make check-slow    the integration tests too long for CI, in tests/slow/
#   make fuzz          run the .config parser fuzzer for FUZZ_SECONDS
#   make doc           the man pages, build/man/*.1, from docs/man/*.adoc (asciidoctor)
#   make install       kconfperf, kcp-guest(-arm64) and the man pages under
#                      $(DESTDIR)$(PREFIX) (PREFIX=/usr/local): `man kconfperf-sweep`
#   make DEVELOPER=1   warnings are errors
#   make SANITIZE=address,undefined [unit|check]   everything under ASan/UBSan
# Objects go to build/ (build-san/ when SANITIZE is set), so the two never mix;
# B=DIR puts them elsewhere.

CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=
PKG_CONFIG ?= pkg-config
PKGS = sqlite3 gsl zlib

ifdef SANITIZE
B ?= build-san
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
else
B ?= build
SAN_FLAGS :=
endif

WARNINGS := -Wall -Wextra
ifdef DEVELOPER
WARNINGS += -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wvla -Wformat=2 -Wundef -fno-common
endif

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo -lsqlite3 -lgsl -lgslcblas -lz)

# banned.h turns calls of strcpy, sprintf, atoi, ... into compile errors.
BANNED := -include src/util/banned.h
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(CFLAGS) $(WARNINGS) $(SAN_FLAGS) $(PKG_CFLAGS) -Isrc $(BANNED) -MMD -MP
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS)
LIBS = $(PKG_LIBS) -lm

LIB_SRC := $(filter-out src/cmd/main.c,$(wildcard src/*/*.c))
LIB_OBJ := $(patsubst %.c,$(B)/%.o,$(LIB_SRC))
LIB := $(B)/libkconfperf.a
PROGRAM := $(B)/kconfperf

UNIT_SRC := $(wildcard tests/unit/test-*.c)
UNIT_BIN := $(patsubst %.c,$(B)/%,$(filter-out tests/unit/test-lib.c,$(UNIT_SRC)))
# Kept, not make intermediates: else a library edit recompiles every test program's object.
.SECONDARY: $(patsubst %.c,$(B)/%.o,$(UNIT_SRC))
INTEGRATION := $(sort $(wildcard tests/t/t[0-9]*.sh))
FAST := $(sort $(wildcard tests/t/t2*-fast-*.sh))
INTEGRATION_SLOW := $(sort $(wildcard tests/slow/t[0-9]*.sh))

# The guest runs as /init inside the test kernels: static, no sanitizers.
# Its bytes are the same in every checkout: the build directory's path
# would reach the debug info, so the initramfs and with it every guest
# time measured (PROVE_LOCKING's system call samples moved by up to 0.5%
# between a developer's checkout and CI's clone), and CI measured another guest.
GUEST_SRC := $(wildcard guest/*.c)
# The host's sources the guest shares, compiled with the guest's flags.
GUEST_SHARED := src/run/workload-table.c
GUEST_OBJ := $(patsubst guest/%.c,$(B)/guest/%.o,$(GUEST_SRC)) \
	$(patsubst src/%.c,$(B)/guest/src/%.o,$(GUEST_SHARED))
GUEST_ARM64_OBJ := $(patsubst guest/%.c,$(B)/guest-arm64/%.o,$(GUEST_SRC)) \
	$(patsubst src/%.c,$(B)/guest-arm64/src/%.o,$(GUEST_SHARED))
GUEST := $(if $(GUEST_SRC),$(B)/kcp-guest)
GUEST_CFLAGS = -std=gnu11 -D_GNU_SOURCE -O2 -g -ffile-prefix-map=$(CURDIR)=. $(WARNINGS) \
	-Iguest -Isrc $(BANNED) -MMD -MP
# The arm64 guest, for --arch arm64 experiments: cross-compiled, static,
# built when the cross compiler and its static libc are installed
# (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross: scripts/deps).
ARM64_CC ?= aarch64-linux-gnu-gcc
ARM64_LIBC := $(shell $(ARM64_CC) -print-file-name=libc.a 2>/dev/null)
GUEST_ARM64 := $(if $(GUEST_SRC),$(if $(filter /%,$(ARM64_LIBC)),$(B)/kcp-guest-arm64))

# The instruction meter: a qemu TCG plugin (plugin/*.c, plugin/kcp-meter.h says
# which part does what; docs/meter.md), loaded into qemu by every icount run;
# no sanitizers inside qemu.  Built alone: only the plain headers of src/ it names.
METER := $(B)/kcp-meter.so
METER_SRC := $(wildcard plugin/*.c)
METER_OBJ := $(patsubst plugin/%.c,$(B)/plugin/%.o,$(METER_SRC))
METER_CFLAGS = -std=gnu11 -D_GNU_SOURCE -O2 -g -fPIC -fvisibility=hidden $(WARNINGS) $(BANNED) \
	-MMD -MP

FUZZ_SECONDS ?= 60

.PHONY: all unit check check-fast check-slow fuzz doc install clean FORCE
.DELETE_ON_ERROR:

all: $(PROGRAM) $(GUEST) $(GUEST_ARM64) $(METER)
# ./kconfperf is the default build's; B=DIR and SANITIZE builds stay in DIR.
ifeq ($(B),build)
all: kconfperf $(if $(GUEST),kcp-guest) $(if $(GUEST_ARM64),kcp-guest-arm64) kcp-meter.so
# cp -f: a copy that is running (a sweep's) is replaced, not written into.
kconfperf: $(PROGRAM)
	cp -f $< $@
# kconfperf run looks for kcp-guest (kcp-guest-arm64) beside its own executable.
kcp-guest: $(GUEST)
	cp -f $< $@
kcp-guest-arm64: $(GUEST_ARM64)
	cp -f $< $@
# A new file renamed over the old: qemu maps the plugin, and cp would write
# into the running copy of a sweep's qemu (it crashed so here).
kcp-meter.so: $(METER)
	cp -f $< $@.tmp && mv -f $@.tmp $@
endif

# Rebuild everything when the flags change.  FLAGS is the host build's
# command line (t0003 compiles with it); GUEST_FLAGS the guest's.
$(B)/FLAGS: FORCE
	@mkdir -p $(B)
	@echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIBS)' | cmp -s - $@ || \
		echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIBS)' > $@

$(B)/GUEST_FLAGS: FORCE
	@mkdir -p $(B)
	@echo '$(CC) $(ARM64_CC) $(GUEST_CFLAGS)' | cmp -s - $@ || \
		echo '$(CC) $(ARM64_CC) $(GUEST_CFLAGS)' > $@

$(B)/%.o: %.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(PROGRAM): $(B)/src/cmd/main.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(B)/tests/unit/%.o: tests/unit/%.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -c -o $@ $<

$(B)/tests/unit/test-%: $(B)/tests/unit/test-%.o $(B)/tests/unit/test-lib.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# The meter's test is a fake qemu: it exports the plugin API and loads the plugin.
$(B)/tests/unit/test-meter-plugin: LIBS += -rdynamic -ldl
$(B)/tests/unit/test-meter-plugin: | $(METER) $(GUEST)

$(B)/guest/%.o: guest/%.c $(B)/GUEST_FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -c -o $@ $<

$(B)/guest/src/%.o: src/%.c $(B)/GUEST_FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -c -o $@ $<

$(B)/kcp-guest: $(GUEST_OBJ)
	$(CC) -static -o $@ $^ -lpthread

$(B)/plugin/%.o: plugin/%.c $(B)/GUEST_FLAGS
	@mkdir -p $(dir $@)
	$(CC) $(METER_CFLAGS) -c -o $@ $<

$(METER): $(METER_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(METER_CFLAGS) -shared -o $@ $^

$(B)/guest-arm64/%.o: guest/%.c $(B)/GUEST_FLAGS
	@mkdir -p $(dir $@)
	$(ARM64_CC) $(GUEST_CFLAGS) -c -o $@ $<

$(B)/guest-arm64/src/%.o: src/%.c $(B)/GUEST_FLAGS
	@mkdir -p $(dir $@)
	$(ARM64_CC) $(GUEST_CFLAGS) -c -o $@ $<

$(B)/kcp-guest-arm64: $(GUEST_ARM64_OBJ)
	$(ARM64_CC) -static -o $@ $^ -lpthread

unit: $(UNIT_BIN)
	@KCP_BUILD=$(abspath $(B)) tests/run-tests $(UNIT_BIN)

# Kernel sources and builds are content-addressed: every flavour (B=,
# SANITIZE=) shares one test cache, so kernels are built once.
KCP_TEST_CACHE ?= $(abspath build/test-cache)

check: all $(UNIT_BIN)
	@KCP_BUILD=$(abspath $(B)) KCP_BIN=$(abspath $(PROGRAM)) KCP_TEST_CACHE=$(KCP_TEST_CACHE) \
		tests/run-tests $(UNIT_BIN) $(INTEGRATION)

check-fast: all $(UNIT_BIN)
	@KCP_BUILD=$(abspath $(B)) KCP_BIN=$(abspath $(PROGRAM)) \
		tests/run-tests $(UNIT_BIN) $(FAST)

# Real kernels and workloads past CI's hour: each script says what it costs.
check-slow: all
	@KCP_BUILD=$(abspath $(B)) KCP_BIN=$(abspath $(PROGRAM)) KCP_TEST_CACHE=$(KCP_TEST_CACHE) \
		tests/run-tests $(INTEGRATION_SLOW)

-include fuzz/Makefile.inc

# The man pages: one asciidoctor run for all of them (a page each would pay
# Ruby's start-up fifteen times).  A warning is an error: a page that does
# not render cleanly is a broken page.
ASCIIDOCTOR ?= asciidoctor
VERSION = $(shell sed -n 's/^\#define KCONFPERF_VERSION "\(.*\)"/\1/p' src/util/version.h)
MAN_SRC := $(sort $(wildcard docs/man/*.adoc))
MAN := $(patsubst docs/man/%.adoc,$(B)/man/%.1,$(MAN_SRC))

doc: $(MAN)

$(B)/man/.stamp: $(MAN_SRC) src/util/version.h
	@mkdir -p $(B)/man
	$(ASCIIDOCTOR) -b manpage --failure-level=WARN -a mansource=kconfperf \
		-a revnumber=$(VERSION) -a manmanual='kconfperf Manual' -D $(B)/man $(MAN_SRC)
	@touch $@

$(MAN): $(B)/man/.stamp

PREFIX ?= /usr/local
bindir ?= $(PREFIX)/bin
mandir ?= $(PREFIX)/share/man

# kconfperf finds kcp-guest (kcp-guest-arm64) beside its own executable.
install: all doc
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1
	install -m 755 $(PROGRAM) $(GUEST) $(GUEST_ARM64) $(DESTDIR)$(bindir)/
	install -m 644 $(MAN) $(DESTDIR)$(mandir)/man1/

clean:
	rm -rf $(B) build build-san kconfperf kcp-guest kcp-guest-arm64 kcp-meter.so

-include $(shell find $(B)/src $(B)/tests $(B)/guest $(B)/guest-arm64 $(B)/plugin -name '*.d' -type f 2>/dev/null)
