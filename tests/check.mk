# SPDX-License-Identifier: GPL-2.0
#
# Test and demo targets, included by the top-level Makefile.
# See Documentation/testing.rst.
#
#   make check                  deps, build, tests/unit, e2e on 6.1 and 6.12,
#                               KUnit + e2e + kmemleak on the debug kernel
#                               (built the first time, ~25 min on 2 cores)
#   make check-unit             host unit tests only
#   make check-kunit            the KUnit suites (ssdload_test.ko) in the debug guest
#   make check-e2e KERNEL=6.1   e2e in one guest (6.1, 6.12 or debug)
#   make guest-shell KERNEL=6.12  interactive guest with the tree mounted
#   make demo                   four-corners on null_blk and NVMe in a guest
#   make deps                   install the Debian packages (idempotent)

PYTHON  ?= /usr/bin/python3
KERNEL  ?= 6.12
PYTEST  := $(PYTHON) -m pytest -p no:cacheprovider -rfEs
# pytest exit 5 means "no tests collected": that is a failure here.
PYTEST_RC = rc=$$?; if [ $$rc = 5 ]; then echo "check: pytest collected no tests" >&2; exit 1; fi; exit $$rc

deps:
	@scripts/deps.sh

check: deps
	@$(MAKE) --no-print-directory cli || \
		echo "check: make cli failed; the e2e[*]::build items report it" >&2
	@$(PYTEST) tests; $(PYTEST_RC)

check-unit: deps
	@$(MAKE) --no-print-directory cli || true
	@$(PYTEST) tests/unit; $(PYTEST_RC)

check-e2e: deps
	@SSDLOAD_KERNELS="$(KERNEL)" SSDLOAD_KUNIT_KERNELS= $(PYTEST) tests/test_guest.py; $(PYTEST_RC)

check-kunit: deps
	@SSDLOAD_KERNELS= SSDLOAD_KUNIT_KERNELS=debug $(PYTEST) tests/test_guest.py; $(PYTEST_RC)

guest-shell: deps
	$(PYTHON) tests/qemu/guest.py --kernel $(KERNEL) --shell

demo: deps
	@scripts/demo.sh $(KERNEL)

.PHONY: deps check check-unit check-kunit check-e2e guest-shell demo
