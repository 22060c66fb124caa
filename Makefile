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

KDIR ?= /lib/modules/$(shell uname -r)/build

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

uninstall:
	$(MAKE) -C userspace uninstall

clean:
	-test -d "$(KDIR)" && $(MAKE) -C "$(KDIR)" M="$(CURDIR)" clean
	$(MAKE) -C userspace clean

.PHONY: all module cli install install-module install-cli uninstall clean

# Test, demo and style targets live beside the code they drive.
-include tests/check.mk
-include module/style.mk
-include bench/bench.mk
