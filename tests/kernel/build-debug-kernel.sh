#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the ssdload debug test kernel from Debian's newest linux-source
# package (sid), tinyconfig + tests/kernel/debug.config.
#
# The result is cached under $SSDLOAD_CACHE/kernels/debug-<version>-<hash>,
# keyed by the source version and a hash of the config fragment and of this
# script, so later runs reuse it.  On success it prints shell assignments:
#   KVER=...  KDIR=...  VMLINUZ=...  MODDIR=...
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CACHE=${SSDLOAD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ssdload}
SERIES=${SSDLOAD_DEBUG_SERIES:-7.2}
fragment=$here/debug.config

log() { echo "build-debug-kernel: $*" >&2; }
die() { log "$*"; exit 1; }

pkg=linux-source-$SERIES
ver=$("$top/scripts/debfetch.sh" version sid "$pkg")
[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "$pkg is not in sid"
upstream=${ver%%-*}
hash=$(cat "$fragment" "$0" | sha256sum | cut -c1-12)
out=$CACHE/kernels/debug-$upstream-$hash
build=$out/build
stamp=$out/.built

emit() {
	local kver
	kver=$(cat "$build/include/config/kernel.release")
	echo "KVER=$kver"
	echo "KDIR=$build"
	echo "VMLINUZ=$build/arch/x86/boot/bzImage"
	echo "MODDIR=$out/root/lib/modules/$kver"
}

if [ -f "$stamp" ]; then
	emit
	exit 0
fi

# The source tree, shared by every fragment hash of this version.
src=$CACHE/src/linux-$upstream
if [ ! -f "$src/.extracted" ]; then
	log "fetching $pkg $ver"
	"$top/scripts/debfetch.sh" download sid "$CACHE/src" "$pkg" >&2
	deb=$(ls -t "$CACHE/src/${pkg}_"*.deb | head -n1)
	rm -rf "$src" "$CACHE/src/linux-source-$SERIES"
	log "extracting $deb"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$pkg.tar.xz" | tar -xJ -C "$CACHE/src"
	mv "$CACHE/src/linux-source-$SERIES" "$src"
	touch "$src/.extracted"
fi

jobs=$(nproc)
log "configuring $upstream in $build"
mkdir -p "$build"
{
	make -s -C "$src" O="$build" tinyconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "$fragment"
	make -s -C "$src" O="$build" olddefconfig
} > "$out/config.log" 2>&1 || die "configuration failed, see $out/config.log"

# Every option the fragment sets must have survived olddefconfig.
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n) opt=${line%%=*}
		grep -q "^$opt=" "$build/.config" && { log "not off: $line"; missing=1; } ;;
	CONFIG_*=*) grep -qx "$line" "$build/.config" || { log "not set: $line"; missing=1; } ;;
	esac
done < "$fragment"
[ $missing -eq 0 ] || die "the config fragment did not apply (see above)"

log "building with $jobs jobs (about 20 minutes on 2 cores)"
make -s -C "$src" O="$build" -j"$jobs" bzImage modules >&2
rm -rf "$out/root"
make -s -C "$src" O="$build" INSTALL_MOD_PATH="$out/root" modules_install >&2
touch "$stamp"
log "done: $out"
emit
