#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh: install every Debian package ssdload needs to build and test.
#
# Idempotent: when everything is present it only asks dpkg-query and exits.
# Otherwise it runs apt-get install (as root, or through sudo), refreshing the
# package lists first only when they are missing or older than a day, or when
# apt cannot find a package.
set -euo pipefail

PKGS=(
	build-essential pkg-config bc flex bison libelf-dev libssl-dev dwarves
	kmod cpio xz-utils zstd rsync util-linux procps e2fsprogs
	qemu-system-x86 qemu-utils busybox-static
	fio sparse python3 python3-pytest python3-pytest-rerunfailures python3-pytest-xdist
	python3-docutils dmsetup
	# ssdload capture, tests/e2e/test_capture.py (blktrace, blkparse)
	blktrace
	libjson-c-dev libinih-dev libnvme-dev libsgutils2-dev libblkid-dev fdisk mdadm lvm2 stress-ng
	python3-matplotlib chromium
	# tests/unit/test_dkms.py; without recommends it pulls in no linux-headers
	dkms
)

# One dpkg-query for all: a package that is absent or half-installed is missing.
mapfile -t have < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PKGS[@]}" 2>/dev/null |
	awk '$2 == "installed" { print $1 }' || true)
missing=()
for p in "${PKGS[@]}"; do
	[[ " ${have[*]} " == *" $p "* ]] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
SUDO=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { echo "deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
APT=($SUDO apt-get -y -q -o Dpkg::Use-Pty=0 --no-install-recommends)

# Lists missing or older than a day: refresh them before trying.
lists=/var/lib/apt/lists
if [ -z "$(find "$lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -n1)" ]; then
	$SUDO apt-get -q update
	"${APT[@]}" install "${missing[@]}"
	exit 0
fi
"${APT[@]}" install "${missing[@]}" || {
	echo "deps: install failed, refreshing package lists and retrying" >&2
	$SUDO apt-get -q update
	"${APT[@]}" install "${missing[@]}"
}
