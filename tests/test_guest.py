# SPDX-License-Identifier: GPL-2.0
"""The e2e suite in qemu guests, one per kernel (SSDLOAD_KERNELS="6.1 6.12").

tests/conftest.py replaces this module by the bridge in tests/qemu/bridge.py:
each guest runs tests/e2e and every guest test case becomes an item here,
e.g. tests/test_guest.py::e2e[6.1]::test_counts.py::test_exact_counts[randread],
next to e2e[LABEL]::build, ::guest_run and ::dmesg_clean.
"""
