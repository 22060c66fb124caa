#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ssdload-wait.sh DIR TIMEOUT_S: wait until the run ssdload-arm.sh started
# in DIR has ended, at most TIMEOUT_S seconds.  Prints one JSON line; exit
# status the run's, or 124 on the timeout (the job is left to
# ssdload-clean.sh).
set -u
dir=$1 timeout_s=$2
i=0
while [ ! -f "$dir/rc" ]; do
	if [ $i -ge $((timeout_s * 10)) ]; then
		printf '{"rc": 124, "why": "still running after %s s"}\n' "$timeout_s"
		exit 124
	fi
	sleep 0.1
	i=$((i + 1))
done
rc=$(cat "$dir/rc")
printf '{"rc": %s}\n' "$rc"
exit "$rc"
