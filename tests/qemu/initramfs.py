# SPDX-License-Identifier: GPL-2.0
"""Build the guest initramfs: busybox-static, /init and the 9p modules.

The module list is closed over modules.dep (built-in modules are skipped) and
compressed modules are decompressed, since busybox insmod loads plain .ko.
The cpio is cached under $SSDLOAD_CACHE/initramfs/ by a hash of its inputs.

build_probe() makes the initramfs of the KVM smoke boot (guest.probe_kvm):
busybox and an /init that prints PROBE_MARKER on the console and powers off.
"""

import gzip
import hashlib
import lzma
import os
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INIT = os.path.join(HERE, 'init.sh')
BUSYBOX_PATHS = ('/bin/busybox', '/usr/bin/busybox')
FORMAT = 1	# bump when the layout of the cpio changes

# Everything /init needs before it can chroot into the host.  configfs is
# here because it has to be loaded before /sys/kernel/config is mounted.
WANTED = ('virtio_pci', '9pnet_virtio', '9p', 'overlay', 'configfs')


def _modname(path):
	base = os.path.basename(path)
	for ext in ('.xz', '.zst', '.gz'):
		if base.endswith(ext):
			base = base[:-len(ext)]
	return base[:-3].replace('-', '_') if base.endswith('.ko') else None


def module_closure(moddir, wanted=WANTED):
	"""Paths (relative to moddir) of the modules to load, in load order."""
	deps = {}
	names = {}
	with open(os.path.join(moddir, 'modules.dep')) as f:
		for line in f:
			mod, _, rest = line.partition(':')
			deps[mod] = rest.split()
			names[_modname(mod)] = mod
	builtin = set()
	try:
		with open(os.path.join(moddir, 'modules.builtin')) as f:
			builtin = {_modname(l.strip()) for l in f if l.strip()}
	except FileNotFoundError:
		pass
	order = []

	def visit(mod):
		if mod in order:
			return
		# modules.dep lists the full closure, the ones loaded last first.
		for d in reversed(deps.get(mod, [])):
			visit(d)
		order.append(mod)

	for w in wanted:
		n = w.replace('-', '_')
		if n in builtin:
			continue
		if n not in names:
			# e.g. a minimal debug kernel without overlayfs: /init copes
			print(f'initramfs: {w} is neither a module nor built in, skipped',
			      file=sys.stderr)
			continue
		visit(names[n])
	return order


def _read_module(path):
	if path.endswith('.xz'):
		with lzma.open(path) as f:
			return f.read()
	if path.endswith('.gz'):
		with gzip.open(path) as f:
			return f.read()
	if path.endswith('.zst'):
		return subprocess.run(['zstd', '-dc', path], check=True,
				      stdout=subprocess.PIPE).stdout
	with open(path, 'rb') as f:
		return f.read()


def _busybox():
	for p in BUSYBOX_PATHS:
		if os.path.exists(p):
			return p
	raise RuntimeError('busybox not found: install busybox-static')


def _cpio_newc(entries, out):
	"""Write a newc cpio; entries are (name, mode, data-or-linktarget)."""
	ino = 1
	for name, mode, data in entries + [('TRAILER!!!', 0, b'')]:
		if isinstance(data, str):
			data = data.encode()
		nm = name.encode() + b'\0'
		hdr = '070701' + ''.join('%08x' % v for v in (
			ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(nm), 0))
		out.write(hdr.encode() + nm)
		out.write(b'\0' * ((4 - (110 + len(nm)) % 4) % 4))
		out.write(data)
		out.write(b'\0' * ((4 - len(data) % 4) % 4))
		ino += 1


def build(moddir, cache):
	"""Return the path of the (cached) initramfs for the kernel at moddir."""
	mods = module_closure(moddir)
	busybox = _busybox()
	h = hashlib.sha256(b'format %d\n' % FORMAT)
	for p in [INIT, busybox] + [os.path.join(moddir, m) for m in mods]:
		st = os.stat(p)
		h.update(f'{p} {st.st_size} {st.st_mtime_ns}\n'.encode())
	with open(INIT, 'rb') as f:
		h.update(f.read())
	name = f'{os.path.basename(moddir)}-{h.hexdigest()[:16]}.cpio'

	def entries():
		ents = _busybox_entries(busybox, ('bin', 'dev', 'proc', 'sys', 'modules',
						  'out', 'host'))
		with open(INIT, 'rb') as f:
			ents.append(('init', stat.S_IFREG | 0o755, f.read()))
		order = []
		for i, m in enumerate(mods):
			mname = '%02d-%s.ko' % (i, _modname(m))
			ents.append(('modules/' + mname, stat.S_IFREG | 0o644,
				     _read_module(os.path.join(moddir, m))))
			order.append(mname)
		ents.append(('modules/order', stat.S_IFREG | 0o644,
			     ''.join(n + '\n' for n in order)))
		return ents
	return _cached_cpio(cache, name, entries)


def _busybox_entries(busybox, dirs):
	"""The directories @dirs, busybox as bin/busybox and bin/sh."""
	D, F, L = stat.S_IFDIR | 0o755, stat.S_IFREG, stat.S_IFLNK | 0o777
	ents = [(d, D, b'') for d in dirs]
	with open(busybox, 'rb') as f:
		ents.append(('bin/busybox', F | 0o755, f.read()))
	ents.append(('bin/sh', L, 'busybox'))
	return ents


def _cached_cpio(cache, name, entries):
	"""$cache/initramfs/@name, written (atomically) from entries() unless it
	is there already; its path."""
	outdir = os.path.join(cache, 'initramfs')
	out = os.path.join(outdir, name)
	if os.path.exists(out):
		return out
	os.makedirs(outdir, exist_ok=True)
	fd, tmp = tempfile.mkstemp(dir=outdir, suffix='.tmp')
	with os.fdopen(fd, 'wb') as f:
		_cpio_newc(entries(), f)
	os.replace(tmp, out)
	return out


# The smoke boot's /init: no module, no share, only the marker on the console.
PROBE_MARKER = 'ssdload-accel-probe: userspace reached'
PROBE_INIT = f'''#!/bin/busybox sh
# /init of the accelerator smoke boot (tests/qemu/guest.py: probe_kvm)
/bin/busybox mount -t proc proc /proc
/bin/busybox echo "{PROBE_MARKER}"
# also straight to the serial port, should the kernel have given /init no console
/bin/busybox mount -t devtmpfs dev /dev && /bin/busybox echo "{PROBE_MARKER}" > /dev/ttyS0
/bin/busybox poweroff -f
'''


def build_probe(cache):
	"""Return the path of the (cached) initramfs of the accelerator probe."""
	busybox = _busybox()
	st = os.stat(busybox)
	h = hashlib.sha256(f'probe {FORMAT}\n{busybox} {st.st_size} {st.st_mtime_ns}\n'
			   f'{PROBE_INIT}'.encode())

	def entries():
		ents = _busybox_entries(busybox, ('bin', 'dev', 'proc'))
		ents.append(('init', stat.S_IFREG | 0o755, PROBE_INIT))
		return ents
	return _cached_cpio(cache, f'accel-probe-{h.hexdigest()[:16]}.cpio', entries)
