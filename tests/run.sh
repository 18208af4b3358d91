#!/usr/bin/env bash
# make test: the unit tests, then the end-to-end tests; one closing line.
# HZF_BUILD names the build folder (build, or build/asan and the other
# sanitizer builds). --races runs only what races threads on purpose: the
# strategies' race tests and a threaded run of every strategy under the
# shrinker (make test-tsan).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build=${HZF_BUILD:-build}

passed=0 failed=0 skipped=0
count() {	# add up a "NAME: N passed, N failed, N skipped" line
	local line
	line=$(grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
	if [ -z "$line" ]; then
		echo "tests: $2 printed no summary line" >&2
		failed=$((failed + 1))
		return
	fi
	read -r p f s < <(echo "$line" |
		sed -E 's/^[a-z0-9-]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/')
	set -- "$p" "$f" "${s:-0}"
	passed=$((passed + $1)); failed=$((failed + $2)); skipped=$((skipped + ${3:-0}))
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if [ "${1:-}" = --races ]; then
	"$build/hzftest" race shrinker threads_run percpu_counts | tee "$log"
	count "$log" unit
	HZF_BUILD=$build tests/races.sh | tee "$log"
	count "$log" races
else
	"$build/hzftest" | tee "$log"
	count "$log" unit
	HZF_BUILD=$build tests/e2e.sh | tee "$log"
	count "$log" e2e
	HZF_BUILD=$build tests/cli/run.sh | tee "$log"
	count "$log" cli
	HZF_BUILD=$build tests/tables.sh | tee "$log"
	count "$log" tables
	HZF_BUILD=$build tests/cli/status.sh | tee "$log"
	count "$log" status
	HZF_BUILD=$build tests/fuzz/replay.sh | tee "$log"
	count "$log" fuzz
	HZF_BUILD=$build tests/faults.sh | tee "$log"
	count "$log" faults
	HZF_BUILD=$build tests/resources.sh | tee "$log"
	count "$log" resources
	HZF_BUILD=$build tests/trust.sh | tee "$log"
	count "$log" trust
	HZF_BUILD=$build tests/vm.sh --no-guests | tee "$log"
	count "$log" vm
	HZF_BUILD=$build tests/dist.sh | tee "$log"
	count "$log" dist
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
