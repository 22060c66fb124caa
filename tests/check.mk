# SPDX-License-Identifier: GPL-2.0
#
# Test and demo targets, included by the top-level Makefile.
# See Documentation/testing.rst.
#
#   make check                  deps, build, tests/unit (UNIT_JOBS workers),
#                               then e2e on 6.1 and 6.12, KUnit + e2e +
#                               kmemleak on the debug kernel (built the first
#                               time, ~25 min on 2 cores)
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
# The host unit tests are independent processes of the CLI, the renderer
# and Chromium: they run on UNIT_JOBS pytest-xdist workers (whole files per
# worker, so a file's module fixtures are built once), when python3-pytest-xdist
# is installed and UNIT_JOBS > 1.  The guests never run under xdist: the
# bridge boots them while collecting tests/test_guest.py.
UNIT_JOBS ?= 2
XDIST = $(shell [ "$(UNIT_JOBS)" -gt 1 ] 2>/dev/null && $(PYTHON) -c 'import xdist' 2>/dev/null && \
	echo '-n $(UNIT_JOBS) --dist loadfile')

deps:
	@scripts/deps.sh

# tests/unit first (minutes, on both cores), then the guests (the bridge):
# two pytest summaries, and make check fails if either run failed.
check: deps
	@$(MAKE) --no-print-directory cli || \
		echo "check: make cli failed; the e2e[*]::build items report it" >&2
	@$(PYTEST) $(XDIST) tests/unit; u=$$?; [ $$u = 5 ] && u=1; \
	$(PYTEST) tests/test_guest.py; g=$$?; [ $$g = 5 ] && g=1; \
	echo "check: tests/unit exited $$u, the guests (tests/test_guest.py) exited $$g"; \
	[ $$u = 0 ] || exit $$u; exit $$g

check-unit: deps
	@$(MAKE) --no-print-directory cli || true
	@$(PYTEST) $(XDIST) tests/unit; $(PYTEST_RC)

check-e2e: deps
	@SSDLOAD_KERNELS="$(KERNEL)" SSDLOAD_KUNIT_KERNELS= $(PYTEST) tests/test_guest.py; $(PYTEST_RC)

check-kunit: deps
	@SSDLOAD_KERNELS= SSDLOAD_KUNIT_KERNELS=debug $(PYTEST) tests/test_guest.py; $(PYTEST_RC)

guest-shell: deps
	$(PYTHON) tests/qemu/guest.py --kernel $(KERNEL) --shell

demo: deps
	@scripts/demo.sh $(KERNEL)

.PHONY: deps check check-unit check-kunit check-e2e guest-shell demo
