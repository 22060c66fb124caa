#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh: make a Debian kernel ready for building and booting.
#
# Usage: fetch-kernel.sh LABEL        LABEL is 6.1 (bookworm) or 6.12
#                                     (bookworm-backports)
#
# Resolves the newest linux-image-amd64 of the suite, extracts linux-image,
# linux-headers (arch + common) and linux-kbuild into
# $SSDLOAD_CACHE/kernels/<kver>/root, points the headers' one-line Makefile
# and the modules' build/source links at that tree, runs depmod, and prints
# shell assignments on stdout:
#   KVER=...  KDIR=...  VMLINUZ=...  MODDIR=...  CONFIG=...
# Idempotent: a stamp file marks a finished tree.  Without network access
# the newest tree already in the cache for that LABEL is used.
set -euo pipefail

CACHE=${SSDLOAD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ssdload}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEBFETCH=$HERE/debfetch.sh

die() { echo "fetch-kernel: $*" >&2; exit 1; }

label=${1:-}
case "$label" in
6.1)  suite=bookworm ;           pattern='6.1.*' ;;
6.12) suite=bookworm-backports ; pattern='6.12.*' ;;
*)    die "usage: fetch-kernel.sh 6.1|6.12" ;;
esac

# The newest tree for LABEL that is already in the cache, if any.
cached_kver() {
	local d
	for d in $(ls -1d "$CACHE"/kernels/$pattern 2>/dev/null | sort -V -r); do
		[ -f "$d/.ssdload-ready" ] && { basename "$d"; return 0; }
	done
	return 1
}

kver=
if img=$("$DEBFETCH" resolve "$suite" linux-image-amd64 2>/dev/null) && [ -n "$img" ]; then
	kver=${img#linux-image-}
elif kver=$(cached_kver); then
	echo "fetch-kernel: cannot reach $suite, using cached $kver" >&2
else
	die "cannot resolve linux-image-amd64 in $suite and nothing cached"
fi

dir=$CACHE/kernels/$kver
root=$dir/root
kdir=$root/usr/src/linux-headers-$kver
moddir=$root/lib/modules/$kver
vmlinuz=$root/boot/vmlinuz-$kver
stamp=$dir/.ssdload-ready

if [ ! -f "$stamp" ]; then
	if [ ! -f "$vmlinuz" ] || [ ! -f "$kdir/.config" ] || [ ! -d "$moddir/kernel" ]; then
		deps=$("$DEBFETCH" depends "$suite" "linux-headers-$kver") ||
			die "cannot list the dependencies of linux-headers-$kver"
		common=$(grep -E '^linux-headers-.*-common$' <<<"$deps" | head -n1)
		kbuild=$(grep -E '^linux-kbuild-' <<<"$deps" | head -n1)
		[ -n "$common" ] && [ -n "$kbuild" ] ||
			die "linux-headers-$kver: no -common or linux-kbuild dependency"
		echo "fetch-kernel: extracting $kver ($suite) into $root" >&2
		rm -rf "$root.tmp"
		"$DEBFETCH" extract "$suite" "$root.tmp" "linux-image-$kver" \
			"linux-headers-$kver" "$common" "$kbuild" >&2
		rm -rf "$root"
		mv "$root.tmp" "$root"
	fi

	# Debian's headers Makefile is one "include /usr/src/...-common/Makefile".
	sed -i "s|^include /usr/src/|include $root/usr/src/|" "$kdir/Makefile"
	# Absolute links of the modules dir, pointed into the tree.  The guest sees
	# the host's filesystem at the same paths, so these work there too.
	for l in build source; do
		t=$(readlink "$moddir/$l" 2>/dev/null || true)
		case "$t" in /usr/src/*) ln -sfn "$root$t" "$moddir/$l" ;; esac
	done
	depmod -b "$root" "$kver" ||
		depmod -b "$root/usr" "$kver" || die "depmod failed for $kver"
	[ -f "$moddir/modules.dep" ] || die "no modules.dep in $moddir"
	touch "$stamp"
fi

printf 'KVER=%q\nKDIR=%q\nVMLINUZ=%q\nMODDIR=%q\nCONFIG=%q\n' \
	"$kver" "$kdir" "$vmlinuz" "$moddir" "$root/boot/config-$kver"
