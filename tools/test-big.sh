#!/usr/bin/env bash
# make test-big: a big machine's counts of tasks and file descriptors on
# this one, oversubscribed (--placement none): 1,024 thread tasks and 1,024
# process tasks, eight software events each (perf_event_open opens fds as a
# hardware event does), under the usual soft limit of 1,024 open files,
# short repetitions. Each must complete with every event counted by every
# task in every phase of every repetition, or be refused before it starts
# in one line. Then a hard limit too low for the threads (refused, exit 2),
# perf_event_open made to fail with EMFILE (tools/refuse: a one-line
# failure, never an event called unsupported), and --plan's figures at
# 1,024 tasks. Prints hzfbench's peak resident memory and each stage's
# wall time. Not part of make test (about a minute here); .ci/run calls it.
# Ends with "test-big: N passed, N failed, N skipped".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
refuse=$build/refuse
tasks=${HZF_BIG_TASKS:-1024}
events=task-clock,page-faults,context-switches,cpu-migrations,minor-faults,major-faults,cpu-clock,alignment-faults
nevents=8
reps=2
run=(run --tasks "$tasks" --placement none --size 8M --reps "$reps" --warmup 0 --min-ms 5
	--events "$events" --quiet)
stages=()

now() { date +%s.%N; }
stage() {	# NAME START: its wall time, kept for the closing line
	stages+=("$1 $(awk -v a="$2" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }')")
}
# hzfbench's own peak resident memory, from the folder's meta.json
peak_rss() {
	local kb
	kb=$(grep -oE '"peak_rss_kb": [0-9]+' "$1/meta.json" 2>/dev/null | grep -oE '[0-9]+$')
	if [ -n "$kb" ]; then awk -v k="$kb" 'BEGIN { printf "%.0f MiB", k / 1024 }'; else echo unknown; fi
}

# big KIND: 1,024 tasks of KIND; every event of every task counted, or refused in one line
big() {
	local kind=$1 dir=$tmp/$1 t0 rc want got
	t0=$(now)
	(ulimit -Sn 1024 && exec "$bin" "${run[@]}" --task-kind "$kind" --out "$dir") \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	stage "$kind" "$t0"
	if [ "$rc" = 2 ] && [ "$(grep -c . "$tmp/err")" = 1 ] && [ ! -e "$dir" ]; then
		ok "$tasks $kind tasks: refused before they start, in one line: $(cat "$tmp/err")"
		return
	fi
	# perf.csv: a row a task, phase, event and repetition, each counted
	want=$((tasks * 2 * nevents * reps))
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["count"] != "" && $c["time_running_ns"] > 0 { n++ } END { print n + 0 }' \
		"$dir/perf.csv" 2>/dev/null)
	if [ "$rc" = 0 ] && meta_complete "$dir" && [ "$got" = "$want" ] &&
		grep -q '"unsupported_events": \[\]' "$dir/meta.json"; then
		ok "$tasks $kind tasks x $nevents events under ulimit -Sn 1024: all $want counts taken (hzfbench's peak RSS $(peak_rss "$dir"))"
		peaks+=("$kind $(peak_rss "$dir")")
	else
		fail "$tasks $kind tasks x $nevents events under ulimit -Sn 1024: every count taken" \
			"rc=$rc, $got of $want counted" "$(grep -o '"unsupported_events": [^]]*]' \
			"$dir/meta.json" 2>/dev/null)" "$(head -5 "$tmp/err")"
	fi
}

make -s "$bin" "$refuse" >/dev/null || exit 1
peaks=()
big thread
big process

# the hard limit too low for one process of 1,024 threads and their events
t0=$(now)
(ulimit -n 4096 && exec "$bin" "${run[@]}" --task-kind thread --out "$tmp/hard") \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
stage "hard limit" "$t0"
if [ "$rc" = 2 ] && [ "$(grep -c . "$tmp/err")" = 1 ] && [ ! -e "$tmp/hard" ] &&
	grep -q "over RLIMIT_NOFILE's hard limit of 4,096: raise it (ulimit -Hn" "$tmp/err"; then
	ok "ulimit -n 4096: $tasks thread tasks refused in one line, nothing written"
else
	fail "ulimit -n 4096: $tasks thread tasks refused in one line, nothing written" "rc=$rc" \
		"$(cat "$tmp/err")"
fi

# perf_event_open out of file descriptors: the run's failure, in one line
t0=$(now)
if "$refuse" perf_event_open EMFILE -- true 2>/dev/null; then
	"$refuse" perf_event_open EMFILE -- "$bin" "${run[@]}" --task-kind thread --out "$tmp/emfile" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	stage "EMFILE" "$t0"
	if [ "$rc" = 1 ] && [ "$(grep -c . "$tmp/err")" = 1 ] && ! meta_complete "$tmp/emfile" &&
		grep -q 'perf_event_open: task-clock: Too many open files .*hzfbench.s failure, not an event this machine cannot count' "$tmp/err"; then
		ok "EMFILE from perf_event_open: one line, nothing called unsupported: $(cat "$tmp/err")"
	else
		fail "EMFILE from perf_event_open: one line, nothing called unsupported" "rc=$rc" \
			"$(cat "$tmp/err")"
	fi
else
	skip "EMFILE from perf_event_open" "seccomp filters cannot be installed here"
fi

# --plan at 1,024 tasks: the peak memory and the fds beside the time (exit 2
# where this machine cannot hold them: 32 GiB of page tables, or 16 TiB of
# real pages where its kernel maps no huge zero folio)
t0=$(now)
"$bin" sweep --plan --placements none --tasks "$tasks" --strategies global --task-kinds thread \
	--faults kernel --size 16G --reps 2 --min-ms 10 --events "$events" >"$tmp/plan" 2>&1
rc=$?
stage "plan" "$t0"
if grep -qE "^plan: memory at the peak: [0-9.]+ [GT]iB, by global kernel thread x$tasks none" "$tmp/plan" &&
	grep -qE "^plan: file descriptors: [0-9,]+ at once in one process, by global kernel thread x$tasks none \\($nevents perf events" "$tmp/plan"; then
	ok "sweep --plan at $tasks tasks: $(grep -E '^plan: (memory|file)' "$tmp/plan" | cut -c7-90 | paste -sd';' -)"
else
	fail "sweep --plan at $tasks tasks: the peak memory and the fds" "rc=$rc" "$(tail -6 "$tmp/plan")"
fi

echo "test-big: peak RSS of hzfbench: ${peaks[*]:-none measured}"
echo "test-big: stages: $(printf '%s, ' "${stages[@]}" | sed 's/, $//')"
finish test-big
