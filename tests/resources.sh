#!/usr/bin/env bash
# What a run needs of the machine, with the machine's real limits: a run
# that cannot have its file descriptors, tasks or memory is refused before
# anything runs or is written, in one line naming the need, the limit and
# the fix, with exit status 2; one whose soft limit alone is short counts
# every event (hzfbench raises it to the hard one); --plan says what the
# largest configuration holds. Part of make test (make test-big runs 1,024
# tasks). Ends with "resources: N passed, N failed, N skipped".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
sw_events=task-clock,page-faults,context-switches,cpu-migrations,minor-faults,major-faults,cpu-clock
short=(--size 64M --reps 2 --warmup 0 --min-ms 10 --quiet)

# refused RC_FILE ERR_FILE DIR WANT...: exit 2, one line holding each WANT, no DIR
refused() {
	local rc=$1 err=$2 dir=$3 want
	shift 3
	[ "$rc" = 2 ] && [ "$(grep -c . "$err")" = 1 ] && [ ! -e "$dir" ] || return 1
	for want in "$@"; do grep -qF -- "$want" "$err" || return 1; done
}

# --- file descriptors: 2 tasks x 7 events and hzfbench's own under a hard limit of 20 ---
(ulimit -n 20; exec "$bin" run --tasks 2 --events "$sw_events" "${short[@]}" \
	--out "$tmp/fd20") >"$tmp/out" 2>"$tmp/err"
if refused $? "$tmp/err" "$tmp/fd20" "hzfbench: --tasks: 2: global emulated thread x2 compact:" \
	"RLIMIT_NOFILE's hard limit of 20: raise it (ulimit -Hn" "count fewer --events"; then
	ok "ulimit -n 20: refused before anything runs, in one line: $(cat "$tmp/err")"
else
	fail "ulimit -n 20: refused before anything runs, in one line" "$(cat "$tmp/err")"
fi
# the soft limit alone: raised to the hard one, every event counted by every task
(ulimit -Sn 20; exec "$bin" run --tasks 2 --events "$sw_events" "${short[@]}" \
	--out "$tmp/soft20") >"$tmp/out" 2>"$tmp/err"
rc=$?
rows=$(awk -F, 'NR > 1 && $12 != "" { n++ } END { print n + 0 }' "$tmp/soft20/perf.csv" 2>/dev/null)
if [ "$rc" = 0 ] && grep -q '"unsupported_events": \[\]' "$tmp/soft20/meta.json" &&
	[ "$rows" = $((2 * 2 * 2 * 7)) ]; then
	ok "ulimit -Sn 20: raised to the hard limit, 7 events counted by both tasks in both phases"
else
	fail "ulimit -Sn 20: raised to the hard limit, 7 events counted by both tasks" "rc=$rc rows=$rows" \
		"$(cat "$tmp/err")"
fi

# --- memory: 2 tasks of 64T of real faults, a page table each 2 MiB at least ---
"$bin" run --fault kernel --tasks 2 --size 64T --reps 2 --min-ms 10 --quiet --events none \
	--out "$tmp/mem" >"$tmp/out" 2>"$tmp/all"
rc=$?
# where this kernel maps no huge zero folio, its warning comes first
grep -v '^hzfbench: warning: --fault kernel: ' "$tmp/all" >"$tmp/err"
if refused "$rc" "$tmp/err" "$tmp/mem" "hzfbench: --size: 64 TiB: global kernel thread x2 compact:" \
	"at its peak (page tables" "over this machine's MemAvailable of" "a smaller --size (at most"; then
	ok "--size 64T of real faults: refused before anything runs, in one line"
else
	fail "--size 64T of real faults: refused before anything runs, in one line" "$(cat "$tmp/err")"
fi

# --- --plan: the largest configuration's memory, fds and tasks, beside the time ---
if "$bin" sweep --plan --tasks 1,2 --strategies global,persistent --task-kinds thread \
	--size 256M --reps 2 --min-ms 10 >"$tmp/log" 2>&1 &&
	grep -qE '^plan: memory at the peak: [0-9.]+ [KMG]iB, by [a-z]+ emulated thread x2 compact \(the tasks. slots' "$tmp/log" &&
	grep -qE '^plan: file descriptors: [0-9,]+ at once in one process, by global emulated thread x2 compact \(11 perf events and 1 for /proc a task' "$tmp/log" &&
	grep -qE '^plan: tasks: 2 started at once' "$tmp/log" &&
	grep -qE '^plan: this machine: MemAvailable .*: every configuration fits$' "$tmp/log"; then
	ok "sweep --plan: the peak memory, fds and tasks, and this machine's limits"
else
	fail "sweep --plan: the peak memory, fds and tasks, and this machine's limits" "$(cat "$tmp/log")"
fi
"$bin" sweep --plan --faults kernel --strategies global --task-kinds thread --tasks 2 --size 64T \
	--reps 2 --min-ms 10 >"$tmp/log" 2>"$tmp/all"
rc=$?
grep -v '^hzfbench: warning: --fault kernel: ' "$tmp/all" >"$tmp/err"
if [ "$rc" = 2 ] && grep -q ': global kernel thread x2 compact does not fit (below)$' "$tmp/log" &&
	[ "$(grep -c . "$tmp/err")" = 1 ] && grep -q '^hzfbench: --size: 64 TiB: ' "$tmp/err"; then
	ok "sweep --plan of what does not fit here: the plan, then the refusal, exit 2"
else
	fail "sweep --plan of what does not fit here: the plan, then the refusal, exit 2" "rc=$rc" \
		"$(cat "$tmp/log" "$tmp/err")"
fi
if HWLOC_SYNTHETIC="pack:4 [numa] l3:2 core:16 pu:2" "$bin" sweep --plan --tasks 1,128 \
	--strategies global --task-kinds thread --faults kernel --size 16G --reps 2 --min-ms 10 >"$tmp/log" 2>&1 &&
	grep -qE '^plan: memory at the peak: [0-9.]+ GiB, by global kernel thread x128 compact \(page tables 4.0 GiB' "$tmp/log" &&
	grep -qE '^plan: file descriptors: 1,[0-9]{3} at once in one process, by global kernel thread x128' "$tmp/log" &&
	grep -q '^plan: for synthetic: pack:4 \[numa\] l3:2 core:16 pu:2, not this machine: there, MemAvailable must hold' "$tmp/log"; then
	ok "sweep --plan for a 128-PU machine: its peak memory and fds, to check there"
else
	fail "sweep --plan for a 128-PU machine: its peak memory and fds, to check there" "$(cat "$tmp/log")"
fi

# --- tasks: a real pids cgroup (v1's or v2's) of 20 ---
cg=
for base in /sys/fs/cgroup/pids /sys/fs/cgroup /sys/fs/cgroup/unified; do
	if [ ! -w "$base" ] || [ ! -e "$base/cgroup.procs" ]; then continue; fi
	mkdir "$base/hzf-test-$$" 2>/dev/null || continue
	if echo 20 >"$base/hzf-test-$$/pids.max" 2>/dev/null; then
		cg=$base/hzf-test-$$
		break
	fi
	rmdir "$base/hzf-test-$$"
done
if [ -n "$cg" ]; then
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$bin" run --tasks 64 \
		--placement none "${short[@]}" --events none --out "$tmp/pids" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	rmdir "$cg" 2>/dev/null
	if refused "$rc" "$tmp/err" "$tmp/pids" "hzfbench: --tasks: 64: global emulated thread x64 none:" \
		"64 tasks are over the" "pids.max is 20"; then
		ok "a pids cgroup of 20: 64 tasks refused before any starts: $(cat "$tmp/err")"
	else
		fail "a pids cgroup of 20: 64 tasks refused before any starts" "rc=$rc" "$(cat "$tmp/err")"
	fi
else
	skip "a pids cgroup of 20" "no writable pids cgroup here (needs root and the pids controller)"
fi

# --- tasks: RLIMIT_NPROC, which binds a user, not root ---
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	nob=$(mktemp -d /tmp/hzf-nobody-XXXXXX)
	chmod 755 "$nob"
	cp "$bin" "$nob/hzfbench"
	# shellcheck disable=SC2016 # expanded by the inner bash, from its arguments
	setpriv --reuid=65534 --regid=65534 --clear-groups bash -c 'ulimit -u 30; cd /tmp &&
		exec "$1" run --tasks 64 --placement none --size 64M --events none --quiet \
		--out "$2"' bash "$nob/hzfbench" "$nob/r" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if refused "$rc" "$tmp/err" "$nob/r" "hzfbench: --tasks: 64:" \
		"this user runs now, are over RLIMIT_NPROC's 30: raise it (ulimit -u"; then
		ok "RLIMIT_NPROC of 30 for a user: 64 tasks refused before any starts"
	else
		fail "RLIMIT_NPROC of 30 for a user: 64 tasks refused before any starts" "rc=$rc" \
			"$(cat "$tmp/err")"
	fi
	rm -rf "$nob"
else
	skip "RLIMIT_NPROC for a user" "needs root and setpriv to become nobody"
fi

finish resources
