#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ssdload-clock.sh: this host's clock state as one JSON line.  With chrony
# running, chronyc's tracking: the offset of the system clock from NTP time
# (ns, positive: this clock is ahead), its bound (root delay / 2 + root
# dispersion) and the stratum.  Always: CLOCK_REALTIME now (ns), for the
# controller's estimate over the round trip.
now=$(date +%s%N)
if command -v chronyc > /dev/null && t=$(chronyc -c tracking 2> /dev/null); then
	# ref id, name, stratum, ref time, correction (s, + = slow), last offset,
	# rms offset, freq, resid freq, skew, root delay, root dispersion, ...
	echo "$t" | awk -F, -v now="$now" '{
		printf "{\"now_ns\": %s, \"source\": \"chrony\", \"offset_ns\": %.0f, ",
			now, -$5 * 1e9
		printf "\"bound_ns\": %.0f, \"stratum\": %d, \"reference\": \"%s\"}\n",
			($11 / 2 + $12) * 1e9, $3, $2
	}'
	exit 0
fi
printf '{"now_ns": %s, "source": "none"}\n' "$now"
