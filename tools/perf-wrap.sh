#!/usr/bin/env bash
# perf's own view of one configuration, saved beside a results folder:
#   tools/perf-wrap.sh DIR record|c2c [TASKS]
# wraps `hzfbench run --strategy global --profile` (emulated faults, TASKS
# threads, compact; default: every CPU) in `perf record -g` or `perf c2c record`, and
# writes DIR/perf/perf-report.txt or DIR/perf/c2c-report.txt: perf's
# --stdio report, or, where perf cannot record here, what it said instead.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
dir=${1:-} what=${2:-} tasks=${3:-$(getconf _NPROCESSORS_ONLN)}
usage() { echo "usage: tools/perf-wrap.sh DIR record|c2c [TASKS]" >&2; exit 2; }
{ [ -n "$dir" ] && [ -d "$dir" ]; } || usage
case $what in record|c2c) ;; *) usage ;; esac
[[ $tasks =~ ^[1-9][0-9]*$ ]] || { echo "perf-wrap.sh: $tasks: not a task count" >&2; exit 2; }
if ! command -v perf >/dev/null 2>&1; then
	echo "perf-wrap.sh: perf is not installed (Debian: linux-perf)" >&2
	exit 1
fi
bin=build/hzfbench
if [ -f BUNDLE ]; then	# make dist's bundle: its binary is built
	bin=bin/hzfbench
else
	make -s build/hzfbench || exit 1
fi
mkdir -p "$dir/perf"
p=$dir/perf
# --profile: get() and put() out of line, so that perf names them (global_get, global_put)
run=("$bin" run --strategy global --tasks "$tasks" --task-kind thread --placement compact
	--size 1G --reps 1 --warmup 0 --min-ms 300 --events none --profile --quiet)

if [ "$what" = record ]; then
	perf record -q -g -o "$p/record.data" -- "${run[@]}" --out "$p/record-run" \
		>"$p/record.log" 2>&1
	rc=$?
	report=$p/perf-report.txt
	if [ -s "$p/record.data" ]; then
		perf report --stdio --no-children -i "$p/record.data" >"$report" 2>&1
	else
		{ echo "# perf record made no data (exit $rc); it said:"; cat "$p/record.log"; } >"$report"
	fi
else
	perf c2c record -o "$p/c2c.data" -- "${run[@]}" --out "$p/c2c-run" >"$p/c2c.log" 2>&1
	rc=$?
	report=$p/c2c-report.txt
	if [ -s "$p/c2c.data" ]; then
		perf c2c report --stdio -i "$p/c2c.data" >"$report" 2>&1
	else	# e.g. "memory events not supported": no PMU, or no memory sampling on it
		{ echo "# perf c2c record made no data (exit $rc); it said:"; cat "$p/c2c.log"; } >"$report"
	fi
fi
echo "$report"
