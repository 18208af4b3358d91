#!/usr/bin/env bash
# run.sh --kernels: the three guest kernels of make kernels side by side.
# In a qemu guest of each (4 CPUs, 2 sockets, 2 NUMA nodes), the real-fault
# sweep of the kernel alone (native: threads and processes, 1, 2 and 4
# tasks, compact) and hzfbench detect --behaviour; then one folder whose
# summary.csv and samples.csv hold every guest's rows with `strategy` naming
# the kernel that faulted, a meta.json saying so ("kind": "kernels"), the
# table, and report.html with the kernels chart. The guests' own folders
# stay inside it (KERNEL/ and KERNEL-detect/).
# Usage: tools/kernels-run.sh OUT REPS MIN_MS   (run.sh passes them; OUT may be '')
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1 reps=$2 min_ms=$3
bin=build/hzfbench
kdir=${HZF_KERNELS:-build/kernels}
[ "$reps" = auto ] && reps=5	# a guest's sweep is long enough at 5
kernels=()
for k in mmflag persistent global; do
	if [ -r "$kdir/$k/bzImage" ]; then
		kernels+=("$k")
	else
		echo "run.sh: --kernels: $kdir/$k/bzImage: not built (make kernels): left out" >&2
	fi
done
[ "${#kernels[@]}" -gt 0 ] || { echo "run.sh: --kernels: no kernel built in $kdir (make kernels)" >&2; exit 2; }
[ -n "$out" ] || out=results/$(date -u +%Y%m%dT%H%M%SZ)-kernels
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
	echo "run.sh: --out: $out: exists and is not empty" >&2
	exit 2
fi
mkdir -p "$out"
start=$(date -u +%FT%TZ)
vm=(vm --smp 4 --sockets 2 --nodes 2 --mem 2G --timeout 1800)
said=''
for k in "${kernels[@]}"; do
	echo "kernels: $k: the real-fault sweep in a guest (hzfbench ${vm[*]} --kernel $k)"
	# shellcheck disable=SC2054 # the commas are hzfbench's list syntax
	$bin "${vm[@]}" --kernel "$k" --out "$out/$k" -- sweep --faults kernel --strategies native \
		--task-kinds thread,process --tasks 1,2,4 --placements compact --reps "$reps" \
		--min-ms "$min_ms" --events none --quiet --out r
	$bin "${vm[@]}" --kernel "$k" --out "$out/$k-detect" -- detect --behaviour --allow-drop-caches \
		>"$out/$k-detect.txt"
	verdict=$(head -n 1 "$out/$k-detect.txt")
	counts=$(sed -n 2p "$out/$k-detect.txt" | sed 's/^ *//')
	echo "kernels: $k: detect --behaviour says $verdict ($counts)"
	said="$said${said:+; }$k: $verdict"
done

# every guest's rows, strategy named after the kernel (native there is that
# kernel); native's get, a no-op timed in place, is left empty: no strategy's
# get was timed here, and a figure there would read as the kernel's
for f in summary.csv samples.csv; do
	first=1
	for k in "${kernels[@]}"; do
		awk -F, -v OFS=, -v k="$k" -v first="$first" '
			NR == 1 {
				for (i = 1; i <= NF; i++)
					if ($i ~ /^(get_ns_in_fault(_median)?|get_share_of_fault|get_share|put_share)$/)
						blank[i] = 1
				if (first) print
				next
			}
			$1 == "native" { $1 = k; for (i in blank) $i = ""; print }' "$out/$k/r/$f"
		first=0
	done >"$out/$f"
done
release=$(sed -n 's/.*"kernel_release": "\([^"]*\)".*/\1/p' "$out/${kernels[0]}/r/meta.json" | head -n 1)
accel=$(sed -n 's/.*"virtualized": "\([^"]*\)".*/\1/p' "$out/${kernels[0]}/r/meta.json" | head -n 1)
{
	printf '{\n  "kind": "kernels",\n  "cpu_model": "2 sockets, 2 NUMA nodes",\n'
	printf '  "online_cpus": 4,\n  "kernel_release": "%s",\n' "${release%-*}-$(IFS=/; echo "${kernels[*]}")"
	printf '  "virtualized": "%s",\n  "kernels_said": "detect --behaviour says %s",\n' "$accel" "$said"
	printf '  "kernels": ['
	sep=''
	for k in "${kernels[@]}"; do
		printf '%s\n    {"kernel": "%s", "results": "%s/r", "detect": "%s"}' "$sep" "$k" "$k" \
			"$(head -n 1 "$out/$k-detect.txt")"
		sep=,
	done
	printf '\n  ],\n'
	printf '  "start_time": "%s",\n  "end_time": "%s",\n  "complete": true\n}\n' "$start" "$(date -u +%FT%TZ)"
} >"$out/meta.json"
$bin show "$out"
# the kernels side by side, each against the first: its median, ±%stddev,
# %change and the mark of compare's tests, one column group a kernel (exit
# status 1, a kernel slower than the first, is a finding here, not a failure)
if [ "${#kernels[@]}" -ge 2 ]; then
	folders=()
	for k in "${kernels[@]}"; do
		folders+=("$out/$k/r")
	done
	echo
	rc=0
	$bin compare "${folders[@]}" --label "$(IFS=,; echo "${kernels[*]}")" \
		--metric ns_per_fault,teardown_ns_per_fault --out "$out" || rc=$?
	[ "$rc" -le 1 ] || echo "run.sh: --kernels: compare could not hold the kernels side by side" >&2
fi
$bin report "$out" >/dev/null || echo "run.sh: --kernels: the report could not be made (gnuplot?)" >&2
echo "kernels: results=$out report=$out/report.html"
