# SPDX-License-Identifier: GPL-2.0
"""qemu parameters per guest architecture (after kunit.py's qemu_configs)."""

from dataclasses import dataclass, field
from typing import List


@dataclass(frozen=True)
class QemuArchParams:
	"""Everything that differs between architectures, and nothing else."""
	linux_arch: str			# the kernel's ARCH
	qemu_arch: str			# suffix of qemu-system-*
	kernel_command_line: str	# console and arch-specific boot options
	extra_qemu_params: List[str] = field(default_factory=list)


X86_64 = QemuArchParams(
	linux_arch='x86_64',
	qemu_arch='x86_64',
	kernel_command_line='console=ttyS0',
	extra_qemu_params=['-machine', 'pc'],
)

CONFIGS = {'x86_64': X86_64}
