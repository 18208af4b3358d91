#!/usr/bin/env bash
# tools/scale-readers.sh [WORKDIR [SYNTHETIC]]: how long the readers of a
# results folder take at scale. Fabricates a folder of HWLOC_SYNTHETIC's
# SYNTHETIC (default "pack:8 numa:2 core:32 pu:2": 1,024 PUs, 8 packages,
# 16 nodes) with tools/fabricate-results.sh, and two copies of it for
# compare, then prints the median wall time of RUNS (default 3) runs of each
# reader, and the slowest, in seconds:
#   model --from DIR, report DIR, show DIR, compare DIR A B, history FILE DIR
# model writes DIR/model.csv, so that report draws the model's lines as it
# does after ./run.sh. A timing, not a test: a shared machine's figures
# wander; make test holds what the readers print, this only how long.
# HZFBENCH names the binary (default build/hzfbench), HZF_PLOTS the chart
# scripts. WORKDIR (default a mktemp folder, removed at the end) must be new
# or empty; it is kept when given.
set -euo pipefail

synthetic=${2:-pack:8 numa:2 core:32 pu:2}
runs=${RUNS:-3}
# the paths given as the caller meant them, before the repository root is
# the working folder (for tools/fabricate-results.sh)
bin=$(realpath -m "${HZFBENCH:-$(dirname "$0")/../build/hzfbench}")
[ $# -ge 1 ] && work=$(realpath -m "$1")
cd "$(dirname "$0")/.."
[ -x "$bin" ] || { echo "scale-readers: $bin: not built (make build/hzfbench)" >&2; exit 2; }
if [ $# -ge 1 ]; then
	if [ -e "$work" ] && [ -n "$(ls -A "$work")" ]; then
		echo "scale-readers: $work: not empty" >&2
		exit 2
	fi
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

dir=$work/base
start=$(date +%s.%N)
HZFBENCH=$bin tools/fabricate-results.sh "$dir" "$synthetic" >/dev/null
end=$(date +%s.%N)
cp -r "$dir" "$work/a"
cp -r "$dir" "$work/b"
echo "scale-readers: $dir: $synthetic, $(HWLOC_SYNTHETIC=$synthetic "$bin" topo --summary)," \
	"$(du -sm "$dir" | cut -f1) MB; fabricated in $(secs "$start" "$end") s"

# the median and the slowest of RUNS runs of a command, its output to $work/out
timed() {
	local name=$1 i times=()

	shift
	for ((i = 0; i < runs; i++)); do
		start=$(date +%s.%N)
		if ! "$@" >"$work/out" 2>&1; then
			echo "scale-readers: $name failed:" >&2
			tail -5 "$work/out" >&2
			exit 1
		fi
		end=$(date +%s.%N)
		times+=("$(secs "$start" "$end")")
	done
	printf '%s\n' "${times[@]}" | sort -n |
		awk -v name="$name" '{ t[NR] = $1 } END { printf "%-8s median %7.2f s  slowest %7.2f s  (%d runs)\n", name, t[int((NR + 1) / 2)], t[NR], NR }'
}

model() { HWLOC_SYNTHETIC=$synthetic "$bin" model --from "$dir"; }
history() { rm -f "$work/history.csv"; "$bin" history "$work/history.csv" "$dir"; }
timed model model
timed report "$bin" report "$dir"
timed show "$bin" show "$dir"
timed compare "$bin" compare "$dir" "$work/a" "$work/b" --out "$work/compare" --quiet
timed history history
