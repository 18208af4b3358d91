#!/usr/bin/env bash
# Exit statuses, one table for every subcommand (docs/exit-status.md): 0 done,
# 1 done but failed (a run failed, a regression, a verdict that cannot be
# told, a file that could not be written), 2 a usage error or input that
# cannot be used (an unreadable results folder too), 128+N killed by signal
# N. A few representative cases of each subcommand; ends with
# "status: N passed, N failed, N skipped".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

sample=$PWD/tests/data/sample

# want STATUS ARGS...: hzfbench ARGS exits STATUS (run in $tmp, output kept there)
want() {
	local status=$1 rc
	shift
	(cd "$tmp" && exec "$OLDPWD/$bin" "$@") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = "$status" ]; then
		ok "exit $status: hzfbench $*"
	else
		fail "exit $status: hzfbench $*" "exit $rc" "$(head -3 "$tmp/err")"
	fi
}

# every subcommand alike: --help 0, an unknown option 2
for c in $("$bin" --help | sed -n 's/^  \([a-z][a-z0-9]*\) .*/\1/p'); do
	want 0 "$c" --help
	want 2 "$c" --no-such-option
done
want 2
want 2 no-such-subcommand
want 0 --version
want 2 help no-such-subcommand

# run and sweep: done 0, a bad value or an --out not empty 2, a signal 128+N
want 0 run --size 64M --min-ms 1 --reps 1 --quiet --out "$tmp/run"
want 2 run --tasks 0
want 2 run --size 64M --min-ms 1 --reps 1 --quiet --out "$tmp/run"
want 0 sweep --plan --tasks 1,2 --strategies global --task-kinds thread --size 64M
want 2 sweep --strategies native
(cd "$tmp" && exec "$OLDPWD/$bin" run --size 64M --min-ms 2000 --reps 5 --quiet \
	--out "$tmp/killed") >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
rc=$?
if [ "$rc" = $((128 + 15)) ] && ! meta_complete "$tmp/killed"; then
	ok "exit 143: run killed by SIGTERM, its folder incomplete"
else
	fail "exit 143: run killed by SIGTERM, its folder incomplete" "exit $rc"
fi

# the readers of a results folder: 0, 2 for a folder they cannot read
mkdir -p "$tmp/torn" && cp "$sample"/*.* "$tmp/torn/" && head -1 "$sample/summary.csv" >"$tmp/torn/summary.csv"
want 0 show "$sample"
want 2 show "$tmp/torn"
want 2 show
want 2 report "$tmp/torn"
want 2 report
want 0 history "$tmp/history.csv" "$sample"
want 1 history "$tmp/no-such-folder/history.csv" "$sample"
want 2 history "$tmp/history.csv" "$tmp/torn"
want 2 model --from "$tmp/torn" --handoff-ns 40
want 0 model --handoff-ns 40 --fixed-ns 100 --get-ns 10 --tasks 1,2 --out "$tmp/model"
want 2 model --handoff-ns 40
want 2 model --c2c "$tmp/no-such.csv" --fixed-ns 1 --get-ns 1

# compare: 0 nothing regressed, 1 a regression, 2 a folder it cannot read
folder() {	# DIR FACTOR: one configuration, 6 repetitions, its ns per fault times FACTOR
	mkdir -p "$1" && echo '{"complete": true}' >"$1/meta.json"
	{ echo "strategy,fault,task_kind,tasks,placement,step,faults_per_pass,rep,ns_per_fault"
	  for r in 0 1 2 3 4 5; do
		echo "global,emulated,thread,1,compact,2097152,64,$r,$(((100 + r) * $2))"
	  done; } >"$1/samples.csv"
	cp "$1/samples.csv" "$1/summary.csv"
}
folder "$tmp/base" 1
folder "$tmp/slower" 3
want 0 compare "$tmp/base" "$tmp/base" --metric ns_per_fault --quiet --out "$tmp/cmp"
want 1 compare "$tmp/base" "$tmp/slower" --metric ns_per_fault --quiet --out "$tmp/cmp"
want 2 compare "$tmp/base" "$tmp/torn"
want 2 compare "$tmp/base"

# the others: done 0, bad input 2
want 0 topo --placement compact --tasks 1
want 2 topo --tasks 0
want 0 strategies
want 2 strategies extra
want 2 probe extra
want 2 c2c --rounds 5
want 2 zeroout --zero-size 3M
want 2 usemem -n 2 -j 2M 1G
want 2 doctor --json --warnings
want 2 detect
want 2 vm --accel none

finish status
