#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the ssdload test guest (busybox sh, in the initramfs).
#
# Mounts the host's root read-only over 9p at /host and the run's output
# directory (read-write, 9p tag "out") at /out, prepares /host the way the
# e2e tests expect (see Documentation/testing.rst), chroots into it and runs
# $OUT/guest-cmd.sh.  The result goes back through the output share:
# dmesg.txt, then rc (its presence means the guest finished).  Then power off.
#
# Two markers tell the host how far the guest got (tests/qemu/guest.py
# retries a guest once if it dies before "started", never after):
#   booted   written as soon as the output share is mounted;
#   started  written right before guest-cmd.sh runs.
# Each holds the guest's uptime in seconds at that point.

/bin/busybox --install -s /bin
export PATH=/bin

log() { echo "ssdload-guest: $*"; }

finish() {
	dmesg > /out/dmesg.txt 2>/dev/null
	[ -n "$1" ] && echo "$1" > /out/rc
	sync
	poweroff -f
	echo o > /proc/sysrq-trigger
}

fail() {
	log "FATAL: $*"
	echo "$*" > /out/init-error 2>/dev/null
	finish ""
}

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
echo 1 > /proc/sys/kernel/sysrq

while read -r m; do
	insmod "/modules/$m" || log "insmod $m failed"
done < /modules/order

mkdir -p /out /host
O9P=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o "$O9P" out /out || { log "cannot mount the output share"; poweroff -f; }
stamp() { read -r up _ < /proc/uptime; echo "$up" > "/out/$1"; }
stamp booted
mount -t 9p -o "$O9P,ro,cache=loose" hostroot /host || fail "cannot mount the host root"
[ -f /out/guest.conf ] || fail "no guest.conf in the output share"
. /out/guest.conf	# OUT MODDIR TMPFS_DIRS TMPDIR_GUEST NVME_SERIALS SHELL_MODE

m() { mount "$@" || fail "mount $*"; }
m -t proc proc /host/proc
m -t sysfs sys /host/sys
m -t devtmpfs dev /host/dev
mkdir -p /host/dev/pts /host/dev/shm
m -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /host/dev/pts
m -t tmpfs -o mode=1777 shm /host/dev/shm
m -t configfs configfs /host/sys/kernel/config
m -t debugfs debugfs /host/sys/kernel/debug
for d in $TMPFS_DIRS; do
	m -t tmpfs -o mode=755 tmpfs "/host$d"
done
mkdir -p "/host$TMPDIR_GUEST" && chmod 1777 "/host$TMPDIR_GUEST"

# The output share at its host path, so SSDLOAD_OUT is the same on both sides.
m --bind /out "/host$OUT"

# /lib/modules/$(uname -r): a tmpfs on /lib/modules if the host has one,
# else an overlay (tmpfs upper) on the directory that should hold it.
kver=$(uname -r)
if [ -d /host/lib/modules ]; then
	m -t tmpfs -o mode=755 modules /host/lib/modules
elif grep -qw overlay /proc/filesystems; then
	libdir=$(realpath /host/lib)
	mkdir -p /ovl && m -t tmpfs ovl /ovl && mkdir -p /ovl/upper /ovl/work
	m -t overlay -o "lowerdir=$libdir,upperdir=/ovl/upper,workdir=/ovl/work" \
		overlay "$libdir"
	mkdir -p /host/lib/modules
else
	# No overlayfs (the debug kernel): a tmpfs on the lib directory that
	# holds a bind mount (or a copy of the symlink) of each original entry.
	libdir=$(realpath /host/lib)
	mkdir -p /ovl/lower && m --bind "$libdir" /ovl/lower
	m -t tmpfs -o mode=755 libs "$libdir"
	for e in /ovl/lower/* /ovl/lower/.[!.]*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		n=${e##*/}
		if [ -L "$e" ]; then
			ln -s "$(readlink "$e")" "$libdir/$n"
		elif [ -d "$e" ]; then
			mkdir "$libdir/$n" && m --bind "$e" "$libdir/$n"
		else
			touch "$libdir/$n" && m --bind "$e" "$libdir/$n"
		fi
	done
	mkdir -p /host/lib/modules
fi
mkdir -p "/host/lib/modules/$kver"
m --bind "/host$MODDIR" "/host/lib/modules/$kver"

# NVME_SERIALS="serial=VAR ...": wait for each emulated NVMe and write
# VAR=/dev/NAME for the command (the probe order, and with multipath the
# subsystem numbering, decide the names: find them by serial).
nvme_by_serial() {
	for b in /host/sys/block/nvme*; do
		[ -e "$b" ] || continue
		case ${b##*/} in nvme*c*n*) continue ;; esac	# a hidden multipath path
		d=$(readlink -f "$b")
		while [ "$d" != /host/sys ] && [ -n "$d" ] && [ ! -f "$d/serial" ]; do
			d=${d%/*}
		done
		[ -f "$d/serial" ] || continue
		s=$(cat "$d/serial")
		s=${s%% *}
		[ "$s" = "$1" ] && echo "/dev/${b##*/}" && return 0
	done
	return 1
}
if [ -n "$NVME_SERIALS" ]; then
	chroot /host /sbin/modprobe nvme || log "modprobe nvme failed"
	: > /out/nvme.env
	for pair in $NVME_SERIALS; do
		serial=${pair%%=*}
		i=0
		while ! dev=$(nvme_by_serial "$serial") && [ $i -lt 100 ]; do
			sleep 0.1; i=$((i + 1))
		done
		while [ -n "$dev" ] && [ ! -b "/host$dev" ] && [ $i -lt 100 ]; do
			sleep 0.1; i=$((i + 1))
		done
		if [ -n "$dev" ] && [ -b "/host$dev" ]; then
			echo "export ${pair#*=}=$dev" >> /out/nvme.env
		else
			log "no NVMe with serial $serial after modprobe nvme"
		fi
	done
fi

cd /host || fail "no /host"
stamp started
sync
if [ "$SHELL_MODE" = 1 ]; then
	log "interactive shell; exit it to power off"
	chroot /host /usr/bin/setsid -c /bin/sh "$OUT/guest-cmd.sh" \
		</dev/ttyS0 >/dev/ttyS0 2>&1
	rc=$?
else
	# Through a pipe, so the command's stdout/stderr are not a tty (no
	# progress lines, no colours); the console still shows everything.
	{ chroot /host /bin/sh "$OUT/guest-cmd.sh" </dev/null; echo $? > /rc; } 2>&1 | cat
	rc=$(cat /rc 2>/dev/null || echo 126)
fi
log "command exited with $rc"
finish "$rc"
