#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ssdload-clean.sh DIR: remove what ssdload-arm.sh left in DIR's run, on
# every path.  SIGINT to the run's session (ssdload stops its job, waits for
# its I/O and removes it), SIGKILL after 30 s (the lease stops the job),
# then rmdir of every job that was not there before the arming.  Prints the
# jobs it had to remove as one JSON line.
set -u
dir=$1
# SSDLOAD_CONFIGFS: another configfs root, as the CLI takes it
jobs=${SSDLOAD_CONFIGFS:-/sys/kernel/config/ssdload}/jobs
[ -d "$dir" ] || { echo '{"removed": []}'; exit 0; }
if [ -s "$dir/pid" ]; then
	pid=$(cat "$dir/pid")
	if kill -0 "$pid" 2>/dev/null; then
		kill -INT -- "-$pid" 2>/dev/null || kill -INT "$pid"
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -KILL -- "-$pid" 2>/dev/null
	fi
fi
removed=
if [ -f "$dir/jobs.before" ]; then
	for j in $(ls "$jobs" 2>/dev/null); do
		grep -qx -- "$j" "$dir/jobs.before" && continue
		echo 0 > "$jobs/$j/enable" 2>/dev/null
		for s in "$jobs/$j"/steps/*; do
			[ -d "$s" ] && rmdir "$s"
		done
		rmdir "$jobs/$j" && removed="$removed${removed:+, }\"$j\""
	done
fi
printf '{"removed": [%s]}\n' "$removed"
