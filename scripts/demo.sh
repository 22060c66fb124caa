#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh [6.12|6.1]: the four corners on null_blk and on qemu's NVMe.
#
# On the host: installs what is missing, builds the module and the CLI,
# boots a guest (tests/qemu/guest.py) and runs this script inside it with
# --guest.  In the guest: loads ssdload.ko, creates a null_blk
# (memory_backed=0, irqmode=0), and runs 4k randread, 4k randwrite, 64k
# read and 64k write for a few seconds on each device with the ssdload CLI,
# printing each normal report and then a table; then a queue-depth sweep
# (1, 4, 16, 64) as the steps of one job on each device.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
RUNTIME=${SSDLOAD_DEMO_RUNTIME:-3}

if [ "${1:-}" != --guest ]; then
	kernel=${1:-6.12}
	"$HERE/deps.sh"
	export SSDLOAD_TEST_DEMO_RUNTIME=$RUNTIME
	# a measuring run: no boot-time block trace events (the tests' tracing)
	export SSDLOAD_GUEST_TRACE=0
	# guest.py picks the accelerator (KVM only after a smoke boot passed,
	# else TCG, in one line), boots once more a guest that died before the
	# demo started, and reports a failure with the tails of the console and
	# of qemu's stderr.
	rc=0
	/usr/bin/python3 "$TOP/tests/qemu/guest.py" --kernel "$kernel" --timeout 900 \
		-- /bin/bash "$TOP/scripts/demo.sh" --guest || rc=$?
	if [ $rc -ne 0 ]; then
		echo "demo: FAILED (exit $rc): the 'guest:' lines above say why;" \
			"qemu's whole stderr is qemu-stderr.log in the output directory" >&2
	fi
	exit $rc
fi

# ---- in the guest ----------------------------------------------------------
RUNTIME=${SSDLOAD_TEST_DEMO_RUNTIME:-$RUNTIME}
cli=$SSDLOAD_CLI
res=$SSDLOAD_OUT/demo
mkdir -p "$res"

insmod "$SSDLOAD_KO"
modprobe null_blk nr_devices=1 memory_backed=0 irqmode=0 gb=4
devs=(/dev/nullb0)
if [ -n "${SSDLOAD_NVME:-}" ] && [ -b "$SSDLOAD_NVME" ]; then
	devs+=("$SSDLOAD_NVME")
else
	echo "demo: no emulated NVMe in this guest" >&2
fi

corners=(
	"4k-randread  --rw=randread  --bs=4k  --iodepth=16"
	"4k-randwrite --rw=randwrite --bs=4k  --iodepth=16 --allow_write"
	"64k-read     --rw=read      --bs=64k --iodepth=8"
	"64k-write    --rw=write     --bs=64k --iodepth=8  --allow_write"
)

rc=0
for dev in "${devs[@]}"; do
	for c in "${corners[@]}"; do
		set -- $c
		label=$1
		shift
		echo
		echo "=== $dev $label: ssdload run --filename=$dev $* --runtime=${RUNTIME}s --time_based"
		if ! timeout $((RUNTIME + 60)) "$cli" run --name=demo --filename="$dev" "$@" \
			--runtime="${RUNTIME}s" --time_based |
			tee "$res/$(basename "$dev")-$label.txt"; then
			echo "demo: ssdload run failed on $dev ($label)" >&2
			rc=1
		fi
	done
done

# A queue-depth sweep, back to back: one job, one step per depth.
for dev in "${devs[@]}"; do
	echo
	echo "=== $dev qd-sweep: ssdload run --filename=$dev --rw=randread --bs=4k" \
		"--runtime=${RUNTIME}s --step=iodepth=1 --step=iodepth=4 --step=iodepth=16 --step=iodepth=64"
	if ! timeout $((4 * RUNTIME + 60)) "$cli" run --name=demo --filename="$dev" \
		--rw=randread --bs=4k --runtime="${RUNTIME}s" --step=iodepth=1 --step=iodepth=4 \
		--step=iodepth=16 --step=iodepth=64 | sed -n '/^Steps:/,$p'; then
		echo "demo: ssdload run (steps) failed on $dev" >&2
		rc=1
	fi
done

# Compact table from the normal reports (fio's layout).
echo
printf '%-14s %-13s %10s %12s %14s %14s\n' DEVICE WORKLOAD IOPS BW "CLAT AVG" "CLAT P99"
for f in "$res"/*.txt; do
	b=$(basename "$f" .txt)
	awk -v dev="${b%%-*}" -v wl="${b#*-}" '
		/^  (read|write): IOPS=/ {
			iops = $2; sub(/^IOPS=/, "", iops); sub(/,$/, "", iops)
			bw = $3; sub(/^BW=/, "", bw)
		}
		/^    clat \(/ && !avg {
			unit = $2; gsub(/[():]/, "", unit)
			for (i = 3; i <= NF; i++) if ($i ~ /^avg=/) { avg = $i; sub(/^avg=/, "", avg); sub(/,$/, "", avg) }
		}
		/clat percentiles/ { punit = $3; gsub(/[():]/, "", punit) }
		/99\.00th=\[/ && !p99 {
			s = $0; sub(/.*99\.00th=\[ */, "", s); sub(/\].*/, "", s); p99 = s
		}
		END {
			printf "%-14s %-13s %10s %12s %14s %14s\n", dev, wl, iops, bw,
				avg " " unit, p99 " " punit
		}' "$f"
done
rmmod null_blk 2>/dev/null || true
rmmod ssdload 2>/dev/null || true
exit $rc
