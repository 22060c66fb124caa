#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ssdload-arm.sh DIR START_AT WAIT_S ARG...: arm one host's part of a
# cluster run.  Starts `ssdload ARG... --start_at=START_AT
# --output-format=json+ --output=DIR/result.json` in its own session in the
# background (it outlives the ssh connection) and returns once its job is
# armed: a job that was not there before is running (its workers sleep on
# an hrtimer until START_AT), or the run already ended well.  Prints one
# JSON line; exit status 1 when it did not arm (the run's last lines say
# why).  ssdload-clean.sh undoes it on every path.
set -u
dir=$1 at=$2 wait_s=$3
shift 3
# SSDLOAD_CONFIGFS: another configfs root, as the CLI takes it
jobs=${SSDLOAD_CONFIGFS:-/sys/kernel/config/ssdload}/jobs
say() { printf '{"armed": %s, "arm_ns": %s, "why": "%s"}\n' "$1" "$2" "$3"; }

mkdir -p "$dir" || exit 1
rm -f "$dir/rc" "$dir/result.json" "$dir/pid"
t0=$(date +%s%N)
if ! ls "$jobs" > "$dir/jobs.before" 2>/dev/null; then
	say false 0 "no $jobs: is ssdload.ko loaded?"
	exit 1
fi
# "$@" goes to ssdload as it is: no command line is built from it.
setsid sh -c 'd=$1; shift; "$@"; echo $? > "$d/rc"' sh "$dir" \
	"$@" --start_at="$at" --output-format=json+ --output="$dir/result.json" \
	> "$dir/run.log" 2>&1 < /dev/null &
echo $! > "$dir/pid"
i=0
while [ $i -lt $((wait_s * 20)) ]; do
	for j in $(ls "$jobs" 2>/dev/null); do
		grep -qx -- "$j" "$dir/jobs.before" && continue
		s=$(cat "$jobs/$j/state" 2>/dev/null)
		case $s in running|done|armed)
			echo "$j" >> "$dir/jobs.armed"
			say true $(($(date +%s%N) - t0)) "job $j $s"
			exit 0 ;;
		esac
	done
	if [ -f "$dir/rc" ]; then
		rc=$(cat "$dir/rc")
		if [ "$rc" = 0 ] && [ -s "$dir/result.json" ]; then
			say true $(($(date +%s%N) - t0)) "ended before the first look"
			exit 0
		fi
		why=$(tail -n 3 "$dir/run.log" | tr '\n"\\' "  ")
		say false $(($(date +%s%N) - t0)) "ssdload exited $rc: $why"
		exit 1
	fi
	sleep 0.05
	i=$((i + 1))
done
say false $(($(date +%s%N) - t0)) "not armed after $wait_s s"
exit 1
