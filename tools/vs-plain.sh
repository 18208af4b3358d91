#!/usr/bin/env bash
# hzfbench's real-fault loop against a plain C program doing the same
# mmap/madvise/read/munmap (tools/plainfault.c), in alternating rounds so that
# both see the same machine. Prints each round, the medians, and our fault
# rate over the plain loop's (1.00: the harness costs nothing; issue 3 asks
# for at least 0.95), as the median of the rounds' own ratios (each round's
# two runs see the same machine) and as the ratio of the medians.
#   tools/vs-plain.sh [ROUNDS [TASKS [SIZE_MB]]]   (defaults 15, 1, 10240)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-15} tasks=${2:-1} size_mb=${3:-10240}
for v in "$rounds" "$tasks" "$size_mb"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "vs-plain.sh: $v: not a positive number" >&2; exit 2; }
done
make -s build/hzfbench build/plainfault
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ours() {	# ns per fault and passes of one repetition
	build/hzfbench run --fault kernel --strategy native --tasks "$tasks" --task-kind process \
		--size "${size_mb}M" --reps 1 --warmup 1 --min-ms 200 --quiet --out "$tmp/r$1" >/dev/null
	awk -F, 'NR == 2 { print $11, $9 }' "$tmp/r$1/samples.csv"	# ns_per_fault, passes
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

read -r _ passes < <(ours calibrate)	# passes per repetition, as hzfbench calibrates them
echo "round  hzfbench ns/fault  plain ns/fault  (native kernel faults, $tasks process(es), ${size_mb}M every 2M, $passes passes)"
for r in $(seq "$rounds"); do
	if [ $((r % 2)) -eq 1 ]; then	# alternate who goes first
		read -r o _ < <(ours "$r")
		p=$(build/plainfault "$tasks" "$size_mb" 2048 "$passes")
	else
		p=$(build/plainfault "$tasks" "$size_mb" 2048 "$passes")
		read -r o _ < <(ours "$r")
	fi
	printf '%5d  %17.1f  %14.1f\n' "$r" "$o" "$p"
	echo "$o" >>"$tmp/ours"
	echo "$p" >>"$tmp/plain"
	echo "$p $o" | awk '{ print $1 / $2 }' >>"$tmp/ratio"
done
mo=$(median <"$tmp/ours") mp=$(median <"$tmp/plain") mr=$(median <"$tmp/ratio")
awk -v o="$mo" -v p="$mp" -v r="$mr" 'BEGIN { printf "median %17.1f  %14.1f\nhzfbench fault rate / plain loop: %.3fx (median of the rounds\047 ratios), %.3fx (ratio of the medians)\n", o, p, r, p / o }'
