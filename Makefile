# SPDX-License-Identifier: GPL-2.0
#
# ssdload top-level Makefile.
#
#   make                      build module/ssdload.ko and userspace/ssdload
#   make KDIR=/path/to/build  build the module against another kernel
#   make check                run every test (see Documentation/testing.rst)
#   make demo                 a real run in a qemu guest, with a printed report
#   make install [DESTDIR=]   the module (in /lib/modules/KVER/extra, for KDIR's
#                             kernel), the CLI, its man page, completion, profiles
#   make install-cli          the CLI part alone (PREFIX=/usr/local)
#   make install-dkms [DESTDIR=]  the module's sources and dkms.conf in
#                             /usr/src/ssdload-VERSION, for `dkms install
#                             ssdload/VERSION` (Documentation/cli.rst)
#   make uninstall            the CLI and the DKMS sources (after `dkms remove`)

KDIR ?= /lib/modules/$(shell uname -r)/build

# The release: uapi/ssdload.h's SSDLOAD_VERSION (the module's MODULE_VERSION).
VERSION := $(shell sed -n 's/^\#define SSDLOAD_VERSION[[:space:]]*"\([^"]*\)".*/\1/p' uapi/ssdload.h 2>/dev/null)
DKMS_SRC = /usr/src/ssdload-$(VERSION)
# What `make module` needs and nothing else: no tests (module/tests holds the
# KUnit suites, which the module's Kbuild builds only when they are there).
DKMS_FILES = dkms.conf Makefile Kbuild uapi/ssdload.h module/Kbuild \
	$(filter-out %.mod.c,$(wildcard module/*.c module/*.h module/compat/*.h))

all: module cli

module:
	@test -d "$(KDIR)" || { echo "make: no kernel build tree at $(KDIR);" \
		"install its headers or pass KDIR=/path/to/linux-headers" >&2; exit 1; }
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)" modules

cli:
	$(MAKE) -C userspace

install: install-module install-cli

# M=module: the module lands in extra/, not in extra/module/
install-module: module
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)/module" INSTALL_MOD_PATH="$(DESTDIR)" \
		INSTALL_MOD_DIR=extra modules_install

install-cli:
	$(MAKE) -C userspace install

# A fresh copy each time: a file removed from the tree leaves none behind.
install-dkms:
	@v=$$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf); \
	test -n "$(VERSION)" && test "$$v" = "$(VERSION)" || { echo "make: dkms.conf's" \
		"PACKAGE_VERSION ($$v) differs from uapi/ssdload.h's SSDLOAD_VERSION ($(VERSION))" >&2; \
		exit 1; }
	rm -rf '$(DESTDIR)$(DKMS_SRC)'
	for f in $(DKMS_FILES); do \
		install -D -m 0644 "$$f" '$(DESTDIR)$(DKMS_SRC)/'"$$f" || exit 1; done

uninstall: uninstall-dkms
	$(MAKE) -C userspace uninstall

# Modules dkms built from the sources go first (as a DKMS package's prerm
# does): removing only the sources would leave dkms a dangling link.
uninstall-dkms:
	@if [ -z '$(DESTDIR)' ] && command -v dkms >/dev/null && \
	    [ -n "$$(dkms status -m ssdload -v '$(VERSION)' 2>/dev/null)" ]; then \
		echo "dkms remove ssdload/$(VERSION) --all"; \
		dkms remove ssdload/'$(VERSION)' --all || exit 1; fi
	rm -rf '$(DESTDIR)$(DKMS_SRC)'

clean: clean-module
	$(MAKE) -C userspace clean

# dkms.conf's CLEAN: the module's build products alone.
clean-module:
	-test -d "$(KDIR)" && $(MAKE) -C "$(KDIR)" M="$(CURDIR)" clean

.PHONY: all module cli install install-module install-cli install-dkms uninstall \
	uninstall-dkms clean clean-module

# Test, demo and style targets live beside the code they drive.
-include tests/check.mk
-include module/style.mk
-include bench/bench.mk
