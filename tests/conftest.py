# SPDX-License-Identifier: GPL-2.0
"""pytest configuration for the host side of `make check`.

On the host, tests/unit runs as it is and tests/test_guest.py is replaced by
the guest bridge (tests/qemu/bridge.py): one qemu guest per kernel runs
tests/e2e and its results are replayed here.  Inside a guest
(SSDLOAD_GUEST=1) this file does nothing, so tests/e2e runs normally.
"""

import os
import sys

IN_GUEST = os.environ.get('SSDLOAD_GUEST') == '1'

if not IN_GUEST:
	# e2e runs only inside the guests; qemu/ and kernel/ hold no tests.
	collect_ignore = ['e2e', 'qemu', 'kernel']

	def pytest_pycollect_makemodule(module_path, parent):
		if module_path.name == 'test_guest.py' and module_path.parent.name == 'tests':
			sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'qemu'))
			import bridge
			return bridge.GuestFile.from_parent(parent, path=module_path)
		return None

	def pytest_terminal_summary(terminalreporter):
		"""One line per kernel with the KUnit results replayed from its guest."""
		bridge = sys.modules.get('bridge')
		for label, c in sorted(getattr(bridge, 'KUNIT_COUNTS', {}).items()):
			total = c['passed'] + c['failed'] + c['skipped']
			terminalreporter.write_line(
				f'KUnit[{label}]: {c["cases"]} cases, {total} results with the '
				f'parameterised sub-cases: {c["passed"]} passed, {c["failed"]} failed, '
				f'{c["skipped"]} skipped')
