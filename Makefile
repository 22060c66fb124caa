# SPDX-License-Identifier: GPL-2.0
#
# ssdload top-level Makefile.
#
#   make                      build module/ssdload.ko and userspace/ssdload
#   make KDIR=/path/to/build  build the module against another kernel
#   make check                run every test (see Documentation/testing.rst)
#   make demo                 a real run in a qemu guest, with a printed report

KDIR ?= /lib/modules/$(shell uname -r)/build

all: module cli

module:
	@test -d "$(KDIR)" || { echo "make: no kernel build tree at $(KDIR);" \
		"install its headers or pass KDIR=/path/to/linux-headers" >&2; exit 1; }
	$(MAKE) -C "$(KDIR)" M="$(CURDIR)" modules

cli:
	$(MAKE) -C userspace

clean:
	-test -d "$(KDIR)" && $(MAKE) -C "$(KDIR)" M="$(CURDIR)" clean
	$(MAKE) -C userspace clean

.PHONY: all module cli clean

# Test, demo and style targets live beside the code they drive.
-include tests/check.mk
-include module/style.mk
-include bench/bench.mk
