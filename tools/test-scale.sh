#!/usr/bin/env bash
# make test-scale: the whole of ./run.sh at the users' scale, in a TCG guest
# of 64 CPUs = 4 sockets x 8 cores x 2 threads in 8 NUMA nodes (hzfbench vm,
# Debian's cloud kernel): both task kinds, compact and scatter, tasks 1..64
# (pow2), emulated and real faults, c2c sampled, model, lifecycle, zeroout;
# run.sh --with-plan, so the plan's estimate stands beside the real time.
# Then, here, every placement verified on every repetition, every
# configuration present, and the report of the main and lifecycle folders
# with every chart drawn. Times under TCG are emulated.
# HZF_SCALE_RUNS=N runs it N times (make test-scale: 3), each must pass.
# Ends with "test-scale: N passed, N failed, N skipped".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
runs=${HZF_SCALE_RUNS:-1}
smp=64 sockets=4 threads=2 nodes=8 mem=8G
want_tasks="1 2 4 8 16 32 64"
keep=${HZF_SCALE_KEEP:-}	# a folder to keep each run's results in

make -s "$bin" || exit 1
tools/deps.sh vm || exit 1

# check_run DIR: the guest's run.sh folder
check_run() {
	local d=$1 n bad missing have k f p t png
	if meta_complete "$d"; then ok "run $r: meta.json complete"; else fail "run $r: meta.json complete"; fi
	# every repetition's placement verified: numa_check ok, nothing else
	n=$(cols "$d/samples.csv" numa_check | sort | uniq -c | tr -s ' ' | paste -sd, -)
	bad=$(cols "$d/samples.csv" numa_check | grep -vc '^ok$')
	if [ "$bad" = 0 ] && [ -n "$n" ]; then
		ok "run $r: every repetition's placement verified ($n)"
	else
		fail "run $r: every repetition's placement verified" "numa_check: $n"
	fi
	# each task seen on the PU and node planned, its table and mm there too
	bad=$(cols "$d/tasks.csv" pu start_cpu node cpu_node table_node |
		awk '$1 != $2 || $3 != $4 || ($5 != "" && $5 != -1 && $5 != $3)' | wc -l)
	if [ "$bad" = 0 ]; then ok "run $r: tasks.csv: every task on its PU and node"; else
		fail "run $r: tasks.csv: every task on its PU and node" "$bad rows not"; fi
	# every configuration asked for (read once: grep -q on a pipe would
	# end it early, and pipefail take the writer's SIGPIPE for a miss)
	missing=()
	have=$(cols "$d/summary.csv" fault task_kind placement tasks)
	for f in emulated kernel; do
		for k in thread process; do
			for p in compact scatter; do
				for t in $want_tasks; do
					grep -qx "$f $k $p $t" <<<"$have" || missing+=("$f/$k/$p/$t")
				done
			done
		done
	done
	if [ "${#missing[@]}" = 0 ]; then ok "run $r: summary.csv: emulated and kernel, thread and process, compact and scatter, tasks $want_tasks"
	else fail "run $r: summary.csv: every configuration" "missing: ${missing[*]}"; fi
	for f in c2c.csv model.txt lifecycle/summary.csv zeroout/zeroout.csv stages.csv plan.txt; do
		if [ -s "$d/$f" ]; then ok "run $r: $f"; else fail "run $r: $f written"; fi
	done
	if grep -q '^global ' "$d/model.txt"; then ok "run $r: model: global predicted"; else
		fail "run $r: model: global predicted" "$(head -3 "$d/model.txt")"; fi
	# the charts, drawn here (the guest has no gnuplot)
	for f in "$d" "$d/lifecycle"; do
		if "$bin" report "$f" >"$tmp/report.log" 2>&1; then
			png=$(find "$f" -maxdepth 2 -name '*.png' -size +2k | wc -l)
			empty=$(find "$f" -maxdepth 2 -name '*.png' -size -2k | wc -l)
			if [ "$png" -gt 0 ] && [ "$empty" = 0 ] && ! grep -qi 'warning\|error' "$tmp/report.log"; then
				ok "run $r: report ${f#"$d"}: $png charts"
			else
				fail "run $r: report ${f#"$d"}: every chart drawn" "$png drawn, $empty under 2 KiB" "$(head -5 "$tmp/report.log")"
			fi
		else
			fail "run $r: report ${f#"$d"}" "$(tail -3 "$tmp/report.log")"
		fi
	done
	echo "run $r: $(grep '^stages:' "$tmp/guest.log" | tail -1)"
	echo "run $r: $(cat "$d/plan.txt")"
	# the plan within 30% of the real time
	if awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+x,?$/) { x = $i + 0; exit } }
		END { exit !(x >= 0.7 && x <= 1.3) }' "$d/plan.txt"; then
		ok "run $r: the plan within 30% of the real time"
	else
		fail "run $r: the plan within 30% of the real time" "$(cat "$d/plan.txt")"
	fi
}

for r in $(seq 1 "$runs"); do
	g=$tmp/guest$r
	t0=$(date +%s)
	if "$bin" vm --accel tcg --smp $smp --sockets $sockets --threads $threads --nodes $nodes \
		--mem $mem --timeout 5400 --out "$g" -- run.sh --no-install --with-plan --out results/run \
		--tasks pow2 --reps 2 --min-ms 20 --size 1G --c2c-pairs 64 --c2c-rounds 1000 --zero-size 4M \
		>"$tmp/guest.log" 2>&1; then
		ok "run $r: hzfbench vm ... -- run.sh: exit 0 after $(($(date +%s) - t0)) s"
		check_run "$g/run"
	else
		fail "run $r: hzfbench vm ... -- run.sh" "$(tail -5 "$tmp/guest.log")"
	fi
	[ -z "$keep" ] || { mkdir -p "$keep" && rm -rf "${keep:?}/run$r" && cp -r "$g" "$keep/run$r"; }
	[ "$failed" = 0 ] || break	# three in a row: one failure ends it
done
finish test-scale
