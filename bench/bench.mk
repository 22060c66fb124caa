# SPDX-License-Identifier: GPL-2.0
#
# make bench: ssdload against fio and the floor module in one 6.1 guest.
# See Documentation/performance.rst.  BENCH_SECONDS, BENCH_ROUNDS,
# BENCH_PERF=1 and BENCH_KERNEL are read from the environment.

PYTHON ?= /usr/bin/python3

bench:
	@$(PYTHON) bench/bench.py

.PHONY: bench
