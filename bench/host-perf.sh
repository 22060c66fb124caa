#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# host-perf.sh ROW [SECONDS]: profile qemu itself (on the host) while the
# bench guest runs the first point of bench row ROW (BENCH_ONLY=ROW).
#
# Under TCG, perf inside the guest sees no PMU and its cpu-clock samples
# land in the idle loop; but every guest instruction is host work, so
# `perf record -p <qemu>` on the host shows where the time goes in qemu:
# the translated code ([JIT]), the softmmu slow paths and the helpers such
# as cpu_get_ticks (each guest rdtsc).  Needs root (or perf_event_paranoid
# <= 1) and perf.  Output: $SSDLOAD_CACHE/bench/host-perf-<row>/{report.txt,
# perf.data, bench.log}.
#
#   bench/host-perf.sh "ssdload 2 workers"
#   bench/host-perf.sh ssdload
set -euo pipefail

row=${1:?usage: host-perf.sh ROW [SECONDS]}
secs=${2:-8}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${SSDLOAD_CACHE:-$HOME/.cache/ssdload}
out=$cache/bench/host-perf-${row// /_}
mkdir -p "$out"
command -v perf > /dev/null || { echo "host-perf: perf not found" >&2; exit 1; }

BENCH_OUT="$out/run" BENCH_ONLY="$row" BENCH_ROUNDS=1 BENCH_SECONDS=$((secs + 12)) \
	/usr/bin/python3 "$HERE/bench.py" > "$out/bench.log" 2>&1 &
bench=$!
trap 'kill $bench 2> /dev/null || true' EXIT

# guest_bench.py logs "bench: guest ..." right before the first point
for _ in $(seq 1200); do
	grep -q "^bench: guest " "$out/bench.log" 2> /dev/null && break
	kill -0 $bench 2> /dev/null || { echo "host-perf: bench ended early, see $out/bench.log" >&2; exit 1; }
	sleep 0.5
done
sleep 4		# past the ramp and the job start
qemu=$(pgrep -n -f "qemu-system.*$out/run" || pgrep -n qemu-system)
perf record -F 999 -g -p "$qemu" -o "$out/perf.data" -- sleep "$secs" > /dev/null 2>&1
wait $bench || true
trap - EXIT
{
	echo "# host perf of qemu (pid $qemu) during bench row '$row', $secs s"
	perf report -i "$out/perf.data" --stdio --no-children --sort dso -g none 2> /dev/null |
		grep -v '^#' | grep -v '^$' | head -8
	echo
	perf report -i "$out/perf.data" --stdio --no-children --sort dso,sym -g none \
		--percent-limit 1 2> /dev/null | grep -v '^#' | grep -v '^$' | head -30
} > "$out/report.txt"
cat "$out/report.txt"
grep -E "^(ssdload|floor|fio)" "$out/bench.log" | head -20 || true
echo "(host-perf: $out)"
