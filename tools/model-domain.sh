#!/usr/bin/env bash
# Where the contention model holds, in one run: the hand-off matrix and the
# contended-operation table (hzfbench c2c --contention), then, for each
# --fault-ns of the list, global and persistent at 1 and 2 thread tasks
# (emulated faults), then the matrix again; each sweep predicted from the
# mean of the two matrices (hzfbench model --from). One line per fault-ns:
#   work_ns    persistent at 1 task minus its --fault-ns 0 figure: the busy
#              work the run delivered, against the NS asked (calibration)
#   g2, pred   global at 2 tasks, measured and predicted, and their ratio, or
#              "outside" where the model says so (a CPU kept the line)
#   per_move   c2c's gets a move of the line at that much work between them
# and whether the hand-off held (within 20%) across the run.
#   tools/model-domain.sh [LIST] [REPS]   (default 0,50,100,200,500,1000,2000 and 5)
set -euo pipefail
cd "$(dirname "$0")/.."
list=${1:-0,50,100,200,500,1000,2000}
reps=${2:-5}
[[ $list =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "model-domain.sh: $list: not a list of ns" >&2; exit 2; }
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "model-domain.sh: $reps: not a positive number" >&2; exit 2; }
[ "$(nproc)" -ge 2 ] || { echo "model-domain.sh: one CPU: no hand-off to measure" >&2; exit 2; }
make -s build/hzfbench
bin=build/hzfbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$bin c2c --contention --work-ns "$list" --out "$tmp/before" >/dev/null
for ns in ${list//,/ }; do
	# shellcheck disable=SC2054 # the commas are hzfbench's list syntax
	$bin sweep --strategies global,persistent --tasks 1,2 --task-kinds thread --faults emulated \
		--fault-ns "$ns" --reps "$reps" --min-ms 100 --events none --quiet --out "$tmp/f$ns" >/dev/null
done
$bin c2c --out "$tmp/after" >/dev/null
mean() { awk -F, 'NR > 1 { for (i = 2; i <= NF; i++) if ($i != "") { s += $i; n++ } } END { printf "%.2f", s / n }' "$1"; }
h0=$(mean "$tmp/before/c2c.csv") h1=$(mean "$tmp/after/c2c.csv")
# the mean of the two matrices, as model reads one
tools/c2c-mean.sh "$tmp/before/c2c.csv" "$tmp/after/c2c.csv" >"$tmp/c2c.csv"
printf '%8s %9s %9s %9s %9s %9s %9s %8s\n' fault_ns p1_ns work_ns asked g2_ns pred_ns meas/pred per_move
p0=''
for ns in ${list//,/ }; do
	d=$tmp/f$ns
	cp "$tmp/c2c.csv" "$tmp/after/c2c-pus.csv" "$tmp/before/c2c-contention.csv" "$d/"
	$bin model --from "$d" >"$d/model.txt" 2>&1 || true
	p1=$(awk '$1 == "persistent" && $4 == 1 { print $6 }' "$d/model.txt")
	[ -n "$p0" ] || p0=$p1
	per=$(awk -F, -v w="$ns" 'NR > 1 && $4 == w { s += $6; n++ } END { if (n) printf "%.2f", s / n }' \
		"$d/c2c-contention.csv")
	awk -v ns="$ns" -v p1="$p1" -v p0="$p0" -v per="${per:--}" '
		$1 == "strategy" { for (i = 1; i <= NF; i++) col[$i] = i }
		$1 == "global" && $4 == 2 && $5 ~ /^[0-9.]+$/ { g2 = $col["meas_ns/flt"]; pred = $6; r = $col["meas/pred"] }
		END { printf "%8d %9.1f %9.1f %9s %9.1f %9.1f %9s %8s\n", ns, p1, p1 - p0,
			ns ? sprintf("%+.1f%%", 100 * ((p1 - p0) / ns - 1)) : "-", g2, pred, r, per }' \
		"$d/model.txt"
done
awk -v a="$h0" -v b="$h1" 'BEGIN { printf "hand-off %.2f ns before, %.2f after: %s\n", a, b,
	(a <= 1.2 * b && b <= 1.2 * a) ? "held (within 20%)" : "moved: the predictions are not to be trusted" }'
