#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of one `make check` guest run (started by guest-cmd.sh in
# the chroot of the host root, see tests/qemu/guest.py):
#
#   guest-run.sh [kunit] [e2e] [kmemleak] -- E2E-COMMAND...
#
#   kunit     insmod $SSDLOAD_KO and $SSDLOAD_KUNIT_KO (the KUnit suites run
#             at load), copy /sys/kernel/debug/kunit/<suite>/results to
#             $SSDLOAD_OUT/kunit/<suite>.ktap, rmmod both;
#   e2e       run E2E-COMMAND (the pytest e2e suite);
#   kmemleak  after the tests and with ssdload unloaded, scan twice with a
#             pause (as Documentation/dev-tools/kmemleak.rst advises) and
#             save the report in $SSDLOAD_OUT/kmemleak.txt (empty = clean);
#             kmemleak.unavailable instead when the kernel has no kmemleak.
#
# Each phase leaves $SSDLOAD_OUT/phase-<name> holding its status.  The exit
# status is the e2e command's, or 0 without e2e.

out=${SSDLOAD_OUT:?}
phases=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	phases="$phases $1"
	shift
done
[ "$1" = "--" ] && shift

log() { echo "guest-run: $*"; }
kmsg() { echo "ssdload-guest: $*" > /dev/kmsg 2>/dev/null; }
loaded() { grep -q "^$1 " /proc/modules; }

phase_kunit() {
	dir=$out/kunit
	rm -rf "$dir"
	mkdir -p "$dir"
	if [ ! -d /sys/kernel/debug/kunit ]; then
		echo "the kernel has no KUnit debugfs (CONFIG_KUNIT_DEBUGFS)" > "$dir/error"
		return 1
	fi
	if [ ! -f "${SSDLOAD_KUNIT_KO:-}" ]; then
		echo "no ssdload_test.ko for this kernel (SSDLOAD_KUNIT_KO=${SSDLOAD_KUNIT_KO:-})" \
			> "$dir/error"
		return 1
	fi
	kmsg "loading ssdload_test.ko (KUnit)"
	if ! loaded ssdload && ! insmod "$SSDLOAD_KO" 2> "$dir/insmod.err"; then
		{ echo "insmod $SSDLOAD_KO failed:"; cat "$dir/insmod.err"; } > "$dir/error"
		return 1
	fi
	start=$(date +%s)
	if ! insmod "$SSDLOAD_KUNIT_KO" 2> "$dir/insmod.err"; then
		{ echo "insmod $SSDLOAD_KUNIT_KO failed:"; cat "$dir/insmod.err"; } > "$dir/error"
	fi
	echo $(($(date +%s) - start)) > "$dir/seconds"
	for r in /sys/kernel/debug/kunit/ssdload_*/results; do
		[ -f "$r" ] || continue
		s=${r%/results}
		cat "$r" > "$dir/${s##*/}.ktap"
	done
	loaded ssdload_test && rmmod ssdload_test
	loaded ssdload && rmmod ssdload
	[ ! -f "$dir/error" ]
}

phase_kmemleak() {
	k=/sys/kernel/debug/kmemleak
	rm -f "$out/kmemleak.txt" "$out/kmemleak.unavailable"
	if [ ! -e "$k" ]; then
		echo "no $k: the kernel has no CONFIG_DEBUG_KMEMLEAK" > "$out/kmemleak.unavailable"
		return 0
	fi
	# the e2e suite leaves ssdload as it found it; unload it in any case
	loaded ssdload_test && rmmod ssdload_test
	loaded ssdload && { rmmod ssdload || log "rmmod ssdload failed"; }
	kmsg "kmemleak scan started"
	echo scan > "$k"
	sleep 5
	echo scan > "$k"
	cat "$k" > "$out/kmemleak.txt.tmp" && mv "$out/kmemleak.txt.tmp" "$out/kmemleak.txt"
	kmsg "kmemleak scan done"
}

rc=0
for p in $phases; do
	t0=$(date +%s)
	log "phase $p"
	case $p in
	kunit)
		phase_kunit
		echo $? > "$out/phase-kunit" ;;
	e2e)
		"$@"
		rc=$?
		echo $rc > "$out/phase-e2e" ;;
	kmemleak)
		phase_kmemleak
		echo $? > "$out/phase-kmemleak" ;;
	*)
		log "unknown phase $p" ;;
	esac
	log "phase $p done in $(($(date +%s) - t0)) s"
	echo $(($(date +%s) - t0)) > "$out/phase-$p.seconds"
done
exit $rc
