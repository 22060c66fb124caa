#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# debfetch.sh: fetch Debian packages without installing them.
#
# Usage:
#   debfetch.sh resolve SUITE PKG          print the newest version-specific
#                                          package a metapackage depends on
#   debfetch.sh depends SUITE PKG          print every package PKG depends on
#   debfetch.sh version SUITE PKG          print the candidate version of PKG
#   debfetch.sh extract SUITE DEST PKG...  download PKG... from SUITE and
#                                          dpkg-deb -x each into DEST
#   debfetch.sh download SUITE DIR PKG...  only download the .debs into DIR
#
# SUITE is a Debian suite such as bookworm, bookworm-backports or sid.  Each
# suite gets a private apt state under $SSDLOAD_CACHE/apt/SUITE, so the
# machine's own apt configuration is never touched.  The mirror URI is taken
# from the machine's existing apt sources; no mirror host is written here.
set -euo pipefail

CACHE=${SSDLOAD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ssdload}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

die() { echo "debfetch: $*" >&2; exit 1; }

# The first Debian (non-security) mirror URI from the machine's apt sources.
mirror_uri() {
	local uri
	uri=$( { cat /etc/apt/sources.list.d/*.sources 2>/dev/null || true; } |
		awk 'tolower($1)=="uris:" { for (i = 2; i <= NF; i++) print $i }' |
		grep -v -- '-security' | grep '/debian/\?$' | head -n1 || true)
	if [ -z "$uri" ]; then
		uri=$( { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true; } |
			awk '$1=="deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }' |
			grep -v -- '-security' | grep '/debian/\?$' | head -n1 || true)
	fi
	[ -n "$uri" ] || die "no Debian mirror found in /etc/apt/sources*"
	echo "${uri%/}"
}

# apt-get/apt-cache with a private state directory for one suite.
apt_private() {
	local suite=$1 tool=$2
	shift 2
	local dir=$CACHE/apt/$suite
	"$tool" -o Dir::Etc::SourceList="$dir/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences=/dev/null \
		-o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State="$dir/state" \
		-o Dir::State::status="$dir/status" \
		-o Dir::Cache="$dir/cache" \
		-o APT::Architecture=amd64 \
		-o Acquire::Languages=none \
		-o Debug::NoLocking=1 \
		-o APT::Sandbox::User=root \
		"$@"
}

# Refresh the private list at most once every 12 hours.
prepare() {
	local suite=$1 dir=$CACHE/apt/$1
	mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial"
	touch "$dir/status"
	local src="deb [signed-by=$KEYRING] $(mirror_uri) $suite main"
	if [ ! -f "$dir/sources.list" ] || [ "$(cat "$dir/sources.list")" != "$src" ]; then
		echo "$src" > "$dir/sources.list"
		rm -f "$dir/stamp"
	fi
	if [ -z "$(find "$dir/stamp" -mmin -720 2>/dev/null)" ]; then
		apt_private "$suite" apt-get -qq update >&2 || die "apt-get update for $suite failed"
		touch "$dir/stamp"
	fi
}

cmd=${1:-}
[ $# -ge 3 ] || die "usage: debfetch.sh resolve|depends|version|extract|download SUITE ..."
suite=$2
prepare "$suite"

case "$cmd" in
resolve)
	# e.g. linux-image-amd64 -> linux-image-6.1.0-41-amd64
	apt_private "$suite" apt-cache depends "$3" 2>/dev/null |
		awk '/Depends:/ { gsub(/[<>]/, "", $2); print $2; exit }'
	;;
depends)
	apt_private "$suite" apt-cache depends "$3" 2>/dev/null |
		awk '/^ *\|?Depends:/ { gsub(/[<>]/, "", $2); print $2 }'
	;;
version)
	apt_private "$suite" apt-cache policy "$3" | awk '/Candidate:/ { print $2 }'
	;;
download|extract)
	dest=$3
	shift 3
	mkdir -p "$dest"
	debs=$CACHE/debs/$suite
	mkdir -p "$debs"
	for pkg in "$@"; do
		ver=$(apt_private "$suite" apt-cache policy "$pkg" | awk '/Candidate:/ { print $2 }')
		[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "$pkg not found in $suite"
		ls "$debs/${pkg}_"*.deb >/dev/null 2>&1 ||
			(cd "$debs" && apt_private "$suite" apt-get -qq download "$pkg" >&2) ||
			die "download of $pkg from $suite failed"
		deb=$(ls -t "$debs/${pkg}_"*.deb | head -n1)
		if [ "$cmd" = extract ]; then
			dpkg-deb -x "$deb" "$dest"
		else
			cp -f "$deb" "$dest/"
		fi
	done
	;;
*)
	die "unknown command $cmd"
	;;
esac
